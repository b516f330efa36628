// The order of a failed version's outcome: its credits are back before anyone can read `fallida`. The ledger is on
// the far side of a round trip on PostgreSQL, so the refund here takes a while on purpose: a client that polls
// the version and reads its balance as soon as it sees `fallida` must find the credits there.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CerebroService, CreditRefunds, Logger, SpaceDirectory } from '@cerebro/sdk';
import { openTestDatabase } from '@cerebro/sdk/testing';
import { landingMigrations } from '../migrations.js';
import type { Brief, Version } from '../model.js';
import { LandingStore } from '../store/landing-store.js';
import { LandingGenerator } from './generator.js';

const REFUND_MS = 150;

const quiet: Logger = {
  trace() {},
  debug() {},
  info() {},
  warn() {},
  error() {},
  child: () => quiet,
};

const brief: Brief = {
  objetivo: 'Vender zapatillas',
  tema: null,
  productos: ['zap-trail'],
  publico: null,
  secciones: null,
  cta: { texto: null, url: 'https://tienda.example' },
  contacto: null,
  idioma: 'es',
  tema_color: null,
};

const firstVersion = (peticion: string, at: string): Version => ({
  numero: 1,
  estado: 'generando',
  origen: 'crear',
  instrucciones: null,
  preguntas: [],
  respuestas: {},
  motivo: null,
  avisos: [],
  plan: {
    secciones: ['hero', 'precios', 'cta'],
    titular: null,
    cta_texto: null,
    tema_color: 'azul',
    longitud: 'media',
  },
  hechos: { catalogo: [], documentos: [] },
  marca: null,
  redaccion: null,
  bytes: null,
  creditos: 2,
  peticion,
  creada: at,
  terminada: null,
});

test('a version that fails is refunded before it reads fallida, and only once', async (t) => {
  const { db } = await openTestDatabase(t, { pluginId: 'landing', migrations: landingMigrations });
  const store = new LandingStore(db, { now: () => Date.now() });
  const refunds: { space: string; request: string }[] = [];
  const credits: CreditRefunds = {
    async refund(space, request) {
      await sleep(REFUND_MS);
      refunds.push({ space, request });
      return 2;
    },
  };
  // A space without ventas: the version asks for products, so it fails with the catalog's reason.
  const spaces: Pick<SpaceDirectory, 'find' | 'moduleEnabled'> = {
    find: async () => undefined,
    moduleEnabled: async () => false,
  };
  const generator = new LandingGenerator({
    store,
    catalog: () => null,
    brand: () => null,
    spaces: spaces as SpaceDirectory,
    cerebro: {} as CerebroService, // never reached: the catalog fails first
    credits,
    log: quiet,
    concurrency: 1,
  });
  t.after(() => generator.close());
  const landing = await store.create('tienda', brief, firstVersion('req-1', store.now()));
  generator.start('tienda', landing.id, 1);

  const deadline = Date.now() + 10_000;
  let version = await store.version('tienda', landing.id, 1);
  while (version?.estado === 'generando' && Date.now() < deadline) {
    await sleep(5);
    version = await store.version('tienda', landing.id, 1);
  }
  assert.equal(version?.estado, 'fallida');
  assert.match(version?.motivo ?? '', /catálogo del módulo ventas/);
  assert.deepEqual(refunds, [{ space: 'tienda', request: 'req-1' }], 'refunded by the time fallida can be read');
  await generator.close();
  assert.equal(refunds.length, 1);
});
