// The brand as the sales agent sees it, and how it gets it (rules 1, 7 and 8).
// The agent never imports the marca module: it reads a brand through `BrandSource`, which the
// host wires to marca's GET /persona + GET /config logic. The cache keeps brand changes visible
// within one minute (rule 8) and keeps the last good brand for when marca fails (rule 7).
import { salesAgentFixedRulesText, type BrandSnapshot } from '@cerebro/sdk';
import { withTimeout } from './timeout.js';

/** Brand fields the agent uses: marca's brand configuration plus its persona text (the sdk's shared shape). */
export type AgentBrand = BrandSnapshot;

export interface BrandSource {
  /** Current brand of a space; may reject or never settle (rule 7 covers both). */
  fetch(espacio: string): Promise<AgentBrand>;
}

/** Milliseconds since an arbitrary origin; injectable so tests move time instead of sleeping. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** Longest time a brand may be served from cache: rule 8 says changes reach conversations within a minute. */
export const MAX_BRAND_TTL_MS = 60_000;

export interface BrandCacheOptions {
  /** How long a fetched brand is reused; clamped to at most 60 s. Default 30 s. */
  ttlMs?: number;
  /** How long to wait for the brand source before falling back (rule 7). Default 1.5 s. */
  timeoutMs?: number;
  /** After a failure, how long to serve the fallback before asking again. Default 5 s. */
  retryMs?: number;
}

export type BrandOrigin = 'fresca' | 'cache' | 'ultima_conocida' | 'ninguna';

interface Entry {
  brand: AgentBrand | null;
  /** When the brand was fetched successfully (null: never). */
  fetchedAt: number | null;
  /** Do not ask the source again before this instant (after a failure). */
  retryAfter: number;
}

export class BrandCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<void>>();
  private readonly ttlMs: number;
  private readonly timeoutMs: number;
  private readonly retryMs: number;

  constructor(
    private readonly source: BrandSource,
    private readonly clock: Clock = systemClock,
    options: BrandCacheOptions = {},
  ) {
    this.ttlMs = Math.min(options.ttlMs ?? 30_000, MAX_BRAND_TTL_MS);
    this.timeoutMs = options.timeoutMs ?? 1_500;
    this.retryMs = Math.min(options.retryMs ?? 5_000, MAX_BRAND_TTL_MS);
  }

  /** The brand to use now, and where it came from. Never rejects. */
  async get(espacio: string): Promise<{ brand: AgentBrand | null; origen: BrandOrigin }> {
    const now = this.clock.now();
    const entry = this.entries.get(espacio);
    if (entry?.fetchedAt != null && now - entry.fetchedAt < this.ttlMs) return { brand: entry.brand, origen: 'cache' };
    if (entry && now < entry.retryAfter) return this.fallback(entry);
    let pending = this.inflight.get(espacio);
    if (!pending) {
      pending = this.refresh(espacio).finally(() => this.inflight.delete(espacio));
      this.inflight.set(espacio, pending);
    }
    await pending;
    const after = this.entries.get(espacio)!;
    return after.fetchedAt !== null ? { brand: after.brand, origen: 'fresca' } : this.fallback(after);
  }

  /** Drops the cached brand of a space (e.g. right after PATCH /config in the same process). */
  invalidate(espacio: string): void {
    const entry = this.entries.get(espacio);
    if (entry) {
      entry.fetchedAt = null;
      entry.retryAfter = 0;
    }
  }

  private fallback(entry: Entry): { brand: AgentBrand | null; origen: BrandOrigin } {
    return entry.brand ? { brand: entry.brand, origen: 'ultima_conocida' } : { brand: null, origen: 'ninguna' };
  }

  private async refresh(espacio: string): Promise<void> {
    const previous = this.entries.get(espacio);
    try {
      const brand = await withTimeout(this.source.fetch(espacio), this.timeoutMs);
      this.entries.set(espacio, { brand, fetchedAt: this.clock.now(), retryAfter: 0 });
    } catch {
      // Rule 7: keep the last brand we had (even if older than the TTL) and back off a little
      // so a hanging brand source does not slow every message down.
      this.entries.set(espacio, {
        brand: previous?.brand ?? null,
        fetchedAt: null,
        retryAfter: this.clock.now() + this.retryMs,
      });
    }
  }
}

/**
 * Rule 1: the brand applies only when the space has the marca module, the sales setting
 * `marca_activa` is on and the brand's `activo` is true. Rule 2: otherwise, none of it.
 */
export function brandApplies(
  moduleEnabled: boolean,
  brandActive: boolean,
  brand: AgentBrand | null,
): brand is AgentBrand {
  return moduleEnabled && brandActive && brand !== null && brand.activo === true;
}

/** The agent's own description, used whenever the brand does not apply. Ends with the same fixed rules. */
export function ownDescription(shop: string | null): string {
  return [
    shop === null ? 'Eres el asistente de ventas de la tienda.' : `Eres el asistente de ventas de ${shop}.`,
    'Respondes con cortesía y en pocas frases, con los datos del catálogo y de la cotización.',
    salesAgentFixedRulesText(),
  ].join('\n');
}
