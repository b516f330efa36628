// Landings and their versions in the plugin's own SQLite file. A version row keeps its HTML and, in `data`, the
// plan, facts (catalog figures and document provenance), questions and warnings it was built with, so a later
// catalog change never alters a stored version.
import { randomBytes } from 'node:crypto';
import type { Clock, PluginDatabase } from '@cerebro/sdk';
import type { Brief, Landing, Version, VersionState } from '../model.js';

interface LandingRow {
  id: string;
  space_id: string;
  brief: string;
  created_at: string;
  updated_at: string;
}
interface VersionRow {
  numero: number;
  estado: VersionState;
  data: string;
  html: string | null;
}

export interface StoredVersion extends Version {
  html: string | null;
}

const INSERT_VERSION =
  'INSERT INTO landing_versions (space_id, landing_id, numero, estado, data, html, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)';
const TOUCH = 'UPDATE landing_landings SET updated_at = ? WHERE space_id = ? AND id = ?';

export class LandingStore {
  constructor(
    private readonly db: PluginDatabase,
    private readonly clock: Clock,
  ) {}

  now(): string {
    return new Date(this.clock.now()).toISOString();
  }

  async create(spaceId: string, brief: Brief, first: Version): Promise<Landing> {
    const id = `lnd_${randomBytes(8).toString('hex')}`;
    const now = this.now();
    await this.db.transaction(async (tx) => {
      await tx.execute(
        'INSERT INTO landing_landings (space_id, id, brief, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
        [spaceId, id, JSON.stringify(brief), now, now],
      );
      await tx.execute(INSERT_VERSION, [spaceId, id, first.numero, first.estado, JSON.stringify(first), null, now]);
    });
    return { id, espacio: spaceId, brief, creada: now, actualizada: now };
  }

  async landing(spaceId: string, id: string): Promise<Landing | null> {
    const row = await this.db.queryOne<LandingRow>('SELECT * FROM landing_landings WHERE space_id = ? AND id = ?', [
      spaceId,
      id,
    ]);
    return row ? toLanding(row) : null;
  }

  async page(spaceId: string, limit: number, offset: number): Promise<{ landings: Landing[]; total: number }> {
    const rows = await this.db.query<LandingRow>(
      'SELECT * FROM landing_landings WHERE space_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?',
      [spaceId, limit, offset],
    );
    const count = await this.db.queryOne<{ n: number }>(
      'SELECT count(*) AS n FROM landing_landings WHERE space_id = ?',
      [spaceId],
    );
    return { landings: rows.map(toLanding), total: count?.n ?? 0 };
  }

  async saveBrief(spaceId: string, id: string, brief: Brief): Promise<void> {
    await this.db.execute('UPDATE landing_landings SET brief = ?, updated_at = ? WHERE space_id = ? AND id = ?', [
      JSON.stringify(brief),
      this.now(),
      spaceId,
      id,
    ]);
  }

  delete(spaceId: string, id: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      await tx.execute('DELETE FROM landing_versions WHERE space_id = ? AND landing_id = ?', [spaceId, id]);
      const { changes } = await tx.execute('DELETE FROM landing_landings WHERE space_id = ? AND id = ?', [spaceId, id]);
      return changes > 0;
    });
  }

  /** Versions without their HTML (the landing's state). */
  async versions(spaceId: string, id: string): Promise<Version[]> {
    const rows = await this.db.query<VersionRow>(
      'SELECT numero, estado, data, NULL AS html FROM landing_versions WHERE space_id = ? AND landing_id = ? ORDER BY numero',
      [spaceId, id],
    );
    return rows.map((r) => toVersion(r));
  }

  async version(spaceId: string, id: string, numero: number): Promise<StoredVersion | null> {
    const row = await this.db.queryOne<VersionRow>(
      'SELECT numero, estado, data, html FROM landing_versions WHERE space_id = ? AND landing_id = ? AND numero = ?',
      [spaceId, id, numero],
    );
    return row ? { ...toVersion(row), html: row.html } : null;
  }

  async latestReady(spaceId: string, id: string): Promise<StoredVersion | null> {
    const row = await this.db.queryOne<VersionRow>(
      "SELECT numero, estado, data, html FROM landing_versions WHERE space_id = ? AND landing_id = ? AND estado = 'lista' ORDER BY numero DESC LIMIT 1",
      [spaceId, id],
    );
    return row ? { ...toVersion(row), html: row.html } : null;
  }

  /** Adds the next version; returns it with its number. */
  addVersion(
    spaceId: string,
    id: string,
    make: (numero: number) => Version,
    html: string | null = null,
  ): Promise<Version> {
    return this.db.transaction(async (tx) => {
      const last = await tx.queryOne<{ n: number | null }>(
        'SELECT max(numero) AS n FROM landing_versions WHERE space_id = ? AND landing_id = ?',
        [spaceId, id],
      );
      const numero = (last?.n ?? 0) + 1;
      const version = make(numero);
      const now = this.now();
      await tx.execute(INSERT_VERSION, [spaceId, id, numero, version.estado, JSON.stringify(version), html, now]);
      await tx.execute(TOUCH, [now, spaceId, id]);
      return version;
    });
  }

  /**
   * Moves a version from `from` to its new state; false when it had already left `from` (cancelled, deleted).
   * Conditional on the state read before: a cancelled version is never overwritten by the work that was running.
   */
  async transition(
    spaceId: string,
    id: string,
    from: VersionState,
    version: Version,
    html: string | null = null,
  ): Promise<boolean> {
    const now = this.now();
    const { changes } = await this.db.execute(
      'UPDATE landing_versions SET estado = ?, data = ?, html = ?, updated_at = ? WHERE space_id = ? AND landing_id = ? AND numero = ? AND estado = ?',
      [version.estado, JSON.stringify(version), html, now, spaceId, id, version.numero, from],
    );
    if (changes > 0) await this.db.execute(TOUCH, [now, spaceId, id]);
    return changes > 0;
  }

  /** Versions left `generando` by a stopped process, to resume at start. */
  async pending(): Promise<{ spaceId: string; landingId: string; numero: number }[]> {
    const rows = await this.db.query<{ space_id: string; landing_id: string; numero: number }>(
      "SELECT space_id, landing_id, numero FROM landing_versions WHERE estado = 'generando' ORDER BY updated_at",
    );
    return rows.map((r) => ({ spaceId: r.space_id, landingId: r.landing_id, numero: r.numero }));
  }
}

function toLanding(row: LandingRow): Landing {
  return {
    id: row.id,
    espacio: row.space_id,
    brief: JSON.parse(row.brief) as Brief,
    creada: row.created_at,
    actualizada: row.updated_at,
  };
}

function toVersion(row: VersionRow): Version {
  return { ...(JSON.parse(row.data) as Version), numero: row.numero, estado: row.estado };
}
