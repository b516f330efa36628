// Shared by the HTTP tests of the module: a sports shop with its catalog and brand on a real test host.
import assert from 'node:assert/strict';
import { startTestHost, type TestHost, type TestHostOptions } from '@cerebro/sdk/testing';
import marca from '@cerebro/plugin-marca';
import ventas from './index.js';
import { brand, catalog } from './agent/test-fixtures.js';

export { marca, ventas };

/** The agent fixtures' sports shop: the same catalog and brand the domain tests use, here sent through the routes. */
export const PRODUCTS = catalog();

const { persona: _persona, ...brandConfig } = brand();
/** The brand as marca's PATCH /config takes it. */
export const BRAND = brandConfig;

/** Without the brand and without `nombre_tienda` the agent names no shop (never the space id). */
export const OWN_GREETING = '¡Hola! Soy el asistente de ventas de la tienda. ¿En qué te puedo ayudar?';
export const BRAND_GREETING = '¡Hola! Soy Sofía, asesora de ventas en Deportes Ruiz. ¿En qué te puedo ayudar?';

/** A clock the test moves by hand (rule 8), starting now. */
export class ManualClock {
  private ms = Date.now();
  now(): number {
    return this.ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

export interface ShopOptions extends TestHostOptions {
  /** Configure the brand through marca's PATCH /config (needs marca loaded). Default true when marca is loaded. */
  brand?: boolean;
  /** Sales settings sent before the test; default `{marca_activa: true, mensajes_entre_combos: 2}`. */
  leadsConfig?: Record<string, unknown>;
}

export interface Shop {
  h: TestHost;
  ventas: string;
  chat(key?: string): Chat;
}

export async function startShop(t: { after(fn: () => unknown): void }, options: ShopOptions = {}): Promise<Shop> {
  const { brand, leadsConfig, ...hostOptions } = options;
  const h = await startTestHost(t, { plugins: [marca, ventas], ...hostOptions });
  const base = `/mod/ventas/${h.spaceId}`;
  for (const p of PRODUCTS) assert.equal((await h.client.put(`${base}/productos/${p.id}`, { json: p })).status, 201);
  const loaded = h.host.plugins.map((p) => p.manifest.id);
  if (brand ?? loaded.includes('marca')) {
    assert.equal((await h.client.patch(`/mod/marca/${h.spaceId}/config`, { json: BRAND })).status, 200);
  }
  const config = await h.client.patch(`${base}/leads-config`, {
    json: leadsConfig ?? { marca_activa: true, mensajes_entre_combos: 2 },
  });
  assert.equal(config.status, 200);
  return { h, ventas: base, chat: (key) => new Chat(h, base, key ?? h.readKey) };
}

/** One lead's conversation over HTTP; `say` posts a message and remembers the conversation id. */
export class Chat {
  id: string | null = null;
  constructor(
    private readonly h: TestHost,
    private readonly base: string,
    private readonly key: string,
  ) {}

  async say(mensaje: string, extra: Record<string, unknown> = {}): Promise<any> {
    const json = { mensaje, ...(this.id ? { conversacion: this.id } : {}), ...extra };
    const res = await this.h.client.post(`${this.base}/conversaciones`, { key: this.key, json });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    this.id = res.body.conversacion;
    return res.body;
  }
}

export function lines(text: string | null): string[] {
  return (text ?? '').split('\n');
}
