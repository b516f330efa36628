// Which version of a landing anyone may see, at which unguessable address, and how often it was seen and its button
// followed. A publication row exists only while the landing is published: unpublishing deletes it, so its token
// stops answering at once and is never given out again (a new publication draws a new one). The counts live apart,
// per landing, and survive an unpublish.
import { randomBytes } from 'node:crypto';
import type { Clock, PluginDatabase } from '@cerebro/sdk';

export interface Publication {
  landingId: string;
  token: string;
  /** The version served. */
  numero: number;
  /** Whether the page carries the lead form. */
  formulario: boolean;
  publicada: string;
  actualizada: string;
}

export interface LandingStats {
  vistas: number;
  clics: number;
}

interface PublicationRow {
  landing_id: string;
  token: string;
  numero: number;
  formulario: number;
  published_at: string;
  updated_at: string;
}

const COLUMNS = 'landing_id, token, numero, formulario, published_at, updated_at';

/** 144 random bits, URL-safe: the address cannot be guessed or enumerated. */
const newToken = (): string => randomBytes(18).toString('base64url');

export class PublicationStore {
  constructor(
    private readonly db: PluginDatabase,
    private readonly clock: Clock,
  ) {}

  /**
   * Publishes `numero` with or without the form. A landing already published keeps its address (only what it
   * serves changes); otherwise a new token is drawn. `created` says which.
   */
  async publish(
    spaceId: string,
    landingId: string,
    numero: number,
    formulario: boolean,
  ): Promise<{ publication: Publication; created: boolean }> {
    const now = new Date(this.clock.now()).toISOString();
    const updated = await this.db.execute(
      'UPDATE landing_publications SET numero = ?, formulario = ?, updated_at = ? WHERE space_id = ? AND landing_id = ?',
      [numero, formulario ? 1 : 0, now, spaceId, landingId],
    );
    if (updated.changes === 0) {
      await this.db.execute(
        `INSERT INTO landing_publications (space_id, ${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (space_id, landing_id) DO UPDATE SET numero = excluded.numero, formulario = excluded.formulario,
         updated_at = excluded.updated_at`,
        [spaceId, landingId, newToken(), numero, formulario ? 1 : 0, now, now],
      );
    }
    const publication = await this.of(spaceId, landingId);
    if (!publication) throw new Error('publication vanished while it was written');
    return { publication, created: updated.changes === 0 };
  }

  /** Unpublishes: false when it was not published. */
  async unpublish(spaceId: string, landingId: string): Promise<boolean> {
    const { changes } = await this.db.execute(
      'DELETE FROM landing_publications WHERE space_id = ? AND landing_id = ?',
      [spaceId, landingId],
    );
    return changes > 0;
  }

  async of(spaceId: string, landingId: string): Promise<Publication | null> {
    const row = await this.db.queryOne<PublicationRow>(
      `SELECT ${COLUMNS} FROM landing_publications WHERE space_id = ? AND landing_id = ?`,
      [spaceId, landingId],
    );
    return row ? toPublication(row) : null;
  }

  async byToken(spaceId: string, token: string): Promise<Publication | null> {
    const row = await this.db.queryOne<PublicationRow>(
      `SELECT ${COLUMNS} FROM landing_publications WHERE space_id = ? AND token = ?`,
      [spaceId, token],
    );
    return row ? toPublication(row) : null;
  }

  /** One more view of the published page (counted on the server: no cookie, no script, no third party). */
  countView(spaceId: string, landingId: string): Promise<void> {
    return this.bump(spaceId, landingId, 'vistas');
  }

  /** One more click on the page's button (counted by the first-party redirect it goes through). */
  countClick(spaceId: string, landingId: string): Promise<void> {
    return this.bump(spaceId, landingId, 'clics');
  }

  async stats(spaceId: string, landingId: string): Promise<LandingStats> {
    const row = await this.db.queryOne<LandingStats>(
      'SELECT vistas, clics FROM landing_stats WHERE space_id = ? AND landing_id = ?',
      [spaceId, landingId],
    );
    return { vistas: row?.vistas ?? 0, clics: row?.clics ?? 0 };
  }

  /** Forgets the landing's publication and counts (the landing is deleted). */
  async forget(spaceId: string, landingId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.execute('DELETE FROM landing_publications WHERE space_id = ? AND landing_id = ?', [spaceId, landingId]);
      await tx.execute('DELETE FROM landing_stats WHERE space_id = ? AND landing_id = ?', [spaceId, landingId]);
    });
  }

  private async bump(spaceId: string, landingId: string, column: 'vistas' | 'clics'): Promise<void> {
    // One statement, additive: concurrent views never lose a count.
    await this.db.execute(
      `INSERT INTO landing_stats (space_id, landing_id, ${column}) VALUES (?, ?, 1)
       ON CONFLICT (space_id, landing_id) DO UPDATE SET ${column} = landing_stats.${column} + 1`,
      [spaceId, landingId],
    );
  }
}

function toPublication(row: PublicationRow): Publication {
  return {
    landingId: row.landing_id,
    token: row.token,
    numero: row.numero,
    formulario: row.formulario === 1,
    publicada: row.published_at,
    actualizada: row.updated_at,
  };
}
