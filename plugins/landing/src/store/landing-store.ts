// Landings and their versions in the plugin's own SQLite file. A version row keeps its HTML and, in `data`, the
// plan, facts (catalog figures and document provenance), questions and warnings it was built with, so a later
// catalog change never alters a stored version.
import { randomBytes } from 'node:crypto';
import type { Clock, PluginStorage } from '@cerebro/sdk';
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

export class LandingStore {
  private readonly s;

  constructor(
    private readonly storage: PluginStorage,
    private readonly clock: Clock,
  ) {
    this.s = {
      insertLanding: storage.prepare(
        'INSERT INTO landing_landings (space_id, id, brief, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
      ),
      updateBrief: storage.prepare(
        'UPDATE landing_landings SET brief = ?, updated_at = ? WHERE space_id = ? AND id = ?',
      ),
      touch: storage.prepare('UPDATE landing_landings SET updated_at = ? WHERE space_id = ? AND id = ?'),
      landing: storage.prepare<LandingRow>('SELECT * FROM landing_landings WHERE space_id = ? AND id = ?'),
      page: storage.prepare<LandingRow>(
        'SELECT * FROM landing_landings WHERE space_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?',
      ),
      count: storage.prepare<{ n: number }>('SELECT count(*) AS n FROM landing_landings WHERE space_id = ?'),
      deleteLanding: storage.prepare('DELETE FROM landing_landings WHERE space_id = ? AND id = ?'),
      deleteVersions: storage.prepare('DELETE FROM landing_versions WHERE space_id = ? AND landing_id = ?'),
      insertVersion: storage.prepare(
        'INSERT INTO landing_versions (space_id, landing_id, numero, estado, data, html, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      // Conditional on the state read before: a cancelled version is never overwritten by the work that was running.
      updateVersion: storage.prepare(
        'UPDATE landing_versions SET estado = ?, data = ?, html = ?, updated_at = ? WHERE space_id = ? AND landing_id = ? AND numero = ? AND estado = ?',
      ),
      versions: storage.prepare<VersionRow>(
        'SELECT numero, estado, data, NULL AS html FROM landing_versions WHERE space_id = ? AND landing_id = ? ORDER BY numero',
      ),
      version: storage.prepare<VersionRow>(
        'SELECT numero, estado, data, html FROM landing_versions WHERE space_id = ? AND landing_id = ? AND numero = ?',
      ),
      latestReady: storage.prepare<VersionRow>(
        "SELECT numero, estado, data, html FROM landing_versions WHERE space_id = ? AND landing_id = ? AND estado = 'lista' ORDER BY numero DESC LIMIT 1",
      ),
      lastNumber: storage.prepare<{ n: number | null }>(
        'SELECT max(numero) AS n FROM landing_versions WHERE space_id = ? AND landing_id = ?',
      ),
      pending: storage.prepare<{ space_id: string; landing_id: string; numero: number }>(
        "SELECT space_id, landing_id, numero FROM landing_versions WHERE estado = 'generando' ORDER BY updated_at",
      ),
    };
  }

  now(): string {
    return new Date(this.clock.now()).toISOString();
  }

  create(spaceId: string, brief: Brief, first: Version): Landing {
    const id = `lnd_${randomBytes(8).toString('hex')}`;
    const now = this.now();
    this.storage.transaction(() => {
      this.s.insertLanding.run(spaceId, id, JSON.stringify(brief), now, now);
      this.s.insertVersion.run(spaceId, id, first.numero, first.estado, JSON.stringify(first), null, now);
    })();
    return { id, espacio: spaceId, brief, creada: now, actualizada: now };
  }

  landing(spaceId: string, id: string): Landing | null {
    const row = this.s.landing.get(spaceId, id);
    return row ? toLanding(row) : null;
  }

  page(spaceId: string, limit: number, offset: number): { landings: Landing[]; total: number } {
    return {
      landings: this.s.page.all(spaceId, limit, offset).map(toLanding),
      total: this.s.count.get(spaceId)?.n ?? 0,
    };
  }

  saveBrief(spaceId: string, id: string, brief: Brief): void {
    this.s.updateBrief.run(JSON.stringify(brief), this.now(), spaceId, id);
  }

  delete(spaceId: string, id: string): boolean {
    return this.storage.transaction(() => {
      this.s.deleteVersions.run(spaceId, id);
      return this.s.deleteLanding.run(spaceId, id).changes > 0;
    })();
  }

  /** Versions without their HTML (the landing's state). */
  versions(spaceId: string, id: string): Version[] {
    return this.s.versions.all(spaceId, id).map((r) => toVersion(r));
  }

  version(spaceId: string, id: string, numero: number): StoredVersion | null {
    const row = this.s.version.get(spaceId, id, numero);
    return row ? { ...toVersion(row), html: row.html } : null;
  }

  latestReady(spaceId: string, id: string): StoredVersion | null {
    const row = this.s.latestReady.get(spaceId, id);
    return row ? { ...toVersion(row), html: row.html } : null;
  }

  /** Adds the next version; returns it with its number. */
  addVersion(spaceId: string, id: string, make: (numero: number) => Version, html: string | null = null): Version {
    return this.storage.transaction(() => {
      const numero = (this.s.lastNumber.get(spaceId, id)?.n ?? 0) + 1;
      const version = make(numero);
      this.s.insertVersion.run(spaceId, id, numero, version.estado, JSON.stringify(version), html, this.now());
      this.s.touch.run(this.now(), spaceId, id);
      return version;
    })();
  }

  /** Moves a version from `from` to its new state; false when it had already left `from` (cancelled, deleted). */
  transition(spaceId: string, id: string, from: VersionState, version: Version, html: string | null = null): boolean {
    const now = this.now();
    const changed =
      this.s.updateVersion.run(version.estado, JSON.stringify(version), html, now, spaceId, id, version.numero, from)
        .changes > 0;
    if (changed) this.s.touch.run(now, spaceId, id);
    return changed;
  }

  /** Versions left `generando` by a stopped process, to resume at start. */
  pending(): { spaceId: string; landingId: string; numero: number }[] {
    return this.s.pending.all().map((r) => ({ spaceId: r.space_id, landingId: r.landing_id, numero: r.numero }));
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
