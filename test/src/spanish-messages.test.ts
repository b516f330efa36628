// Issue #26 item 5: every user-facing Spanish string of the error catalogue (the host's and each installed plugin's
// declared codes), of the schema-validation messages and of the sales agent's templates is read and checked: counts
// agree with their nouns, no English word, prices in the catalog's money format, one shop name, products by name,
// and the catalogue's sentence style. Data-driven: the catalogues and templates are read from the code, not copied.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type CatalogProduct, ERROR_CATALOGUE, type ErrorCatalogue, type JsonSchema } from '@cerebro/sdk';
import { occurrences, spanishProblems } from './support/spanish-style.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Protocol and product terms the catalogue uses on purpose. */
const ALLOW = [
  'Bearer',
  'Authorization',
  'Idempotency',
  'Key',
  'JSON',
  'API',
  'CSRF',
  'Studio',
  'IP',
  'email',
  'Email',
];
/** Codes whose text the contract fixes to the letter, lower case and without a final period included. */
const CONTRACT_STYLE_EXCEPTIONS = new Set(['module_disabled']);

/** Every installed first-party plugin's declared error codes (`manifest.errors`), read from its built entry. */
async function pluginCatalogues(): Promise<[string, ErrorCatalogue][]> {
  const out: [string, ErrorCatalogue][] = [];
  for (const dir of readdirSync(join(ROOT, 'plugins'))) {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'plugins', dir, 'package.json'), 'utf8')) as {
      cerebro?: { plugin?: string };
    };
    if (!pkg.cerebro?.plugin) continue;
    const mod = (await import(pathToFileURL(join(ROOT, 'plugins', dir, pkg.cerebro.plugin)).href)) as {
      default: { manifest: { id: string; errors?: ErrorCatalogue } };
    };
    out.push([mod.default.manifest.id, mod.default.manifest.errors ?? {}]);
  }
  return out;
}

test('the checker itself catches each slip it is meant to catch', () => {
  const flagged = (text: string) => spanishProblems(text, { sentence: true }).length > 0;
  for (const bad of [
    'Debe tener al menos 1 caracteres.',
    'Debe tener como máximo 3 elemento.',
    'El precio es 89,9 EUR.',
    'El precio es 89.9 EUR.',
    'Invalid key, please retry.',
    'sin mayúscula ni punto',
  ]) {
    assert.ok(flagged(bad), bad);
  }
  for (const good of [
    'Queda 1 unidad.',
    'Quedan 2 unidades.',
    'Hace 7 días.',
    'Supera 25 MB.',
    'Cuesta 1.234,50 EUR.',
  ]) {
    assert.deepEqual(spanishProblems(good, { sentence: true }), [], good);
  }
});

test('every error catalogue text (host and plugins) reads as careful Spanish in the catalogue style', async () => {
  const plugins = await pluginCatalogues();
  assert.ok(plugins.length >= 5, 'the first-party plugins were found');
  assert.ok(
    plugins.some(([, errors]) => Object.keys(errors).length > 0),
    'at least one plugin declares codes',
  );
  const entries = [
    ...Object.entries(ERROR_CATALOGUE).map(([code, e]) => [`host ${code}`, code, e.detail] as const),
    ...plugins.flatMap(([id, errors]) =>
      Object.entries(errors).map(([code, e]) => [`${id} ${code}`, code, e.detail] as const),
    ),
  ];
  const wrong = entries.flatMap(([where, code, detail]) =>
    spanishProblems(detail, { sentence: !CONTRACT_STYLE_EXCEPTIONS.has(code), allow: ALLOW }).map(
      (p) => `${where}: ${p} — ${detail}`,
    ),
  );
  assert.deepEqual(wrong, []);
});

/** Every non-test TypeScript source of the host and the plugins. */
function sources(): string[] {
  const dirs = [
    join(ROOT, 'host/src'),
    ...readdirSync(join(ROOT, 'plugins')).map((d) => join(ROOT, 'plugins', d, 'src')),
  ];
  return dirs.flatMap((dir) =>
    (readdirSync(dir, { recursive: true }) as string[])
      .filter((f) => f.endsWith('.ts') && !/\.test\.ts$|test-support|testing\//.test(f))
      .map((f) => join(dir, f)),
  );
}

test('texts a route writes over the catalogue (detail and 422 msg literals) have no English word and agreeing counts', () => {
  // The literal after a code in apiError / invalidField / a plugin's Errors.error, and every `msg:` or `detail:`
  // literal; `${...}` becomes N, so only fixed counts are judged. Field-prefixed plugin messages ("mensaje: debe
  // ser...") have their own style, so sentence style is judged on the catalogue above, not here.
  const literal =
    /(?:apiError|\.error|invalidField)\(\s*'[a-z_.]+'\s*,\s*([`'])((?:(?!\1).){6,}?)\1|(?:msg|detail): ([`'])((?:(?!\3).){6,}?)\3/gs;
  const wrong: string[] = [];
  let read = 0;
  for (const file of sources()) {
    for (const m of readFileSync(file, 'utf8').matchAll(literal)) {
      const text = (m[2] ?? m[4] ?? '').replace(/\$\{[^}]*\}/g, 'N');
      read++;
      wrong.push(...spanishProblems(text, { allow: ALLOW }).map((p) => `${file.slice(ROOT.length)}: ${p} — ${text}`));
    }
  }
  assert.ok(read > 100, `read ${read} texts`);
  assert.deepEqual(wrong, []);
});

test('schema-validation messages agree in number with every limit, 1 included', async () => {
  const { compileBodyValidator } = (await import(
    pathToFileURL(join(ROOT, 'host/dist/http/schema-validation.js')).href
  )) as { compileBodyValidator: (schema: JsonSchema) => (body: unknown) => void };
  const messages: string[] = [];
  const collect = (schema: JsonSchema, body: unknown) => {
    try {
      compileBodyValidator(schema)(body);
      assert.fail(`${JSON.stringify(body)} should fail ${JSON.stringify(schema)}`);
    } catch (err) {
      const detail = (err as { detail: { msg: string }[] }).detail;
      messages.push(...detail.map((d) => d.msg));
    }
  };
  for (const n of [1, 2, 5]) {
    const text = (minLength: number, maxLength: number): JsonSchema => ({
      type: 'object',
      properties: { t: { type: 'string', minLength, maxLength } },
    });
    collect(text(n, 50), { t: 'x'.repeat(n - 1) });
    collect(text(0, n), { t: 'x'.repeat(n + 1) });
    collect({ type: 'object', properties: { l: { type: 'array', minItems: n } } }, { l: Array(n - 1).fill(1) });
    collect({ type: 'object', properties: { l: { type: 'array', maxItems: n } } }, { l: Array(n + 1).fill(1) });
    collect({ type: 'object', properties: { o: { type: 'object', minProperties: n } } }, { o: {} });
    collect(
      { type: 'object', properties: { o: { type: 'object', maxProperties: n } } },
      { o: Object.fromEntries(Array.from({ length: n + 1 }, (_, i) => [`k${i}`, i])) },
    );
  }
  collect(
    { type: 'object', required: ['a'], additionalProperties: false, properties: { a: { type: 'integer' } } },
    {
      b: 1,
    },
  );
  collect(
    { type: 'object', properties: { a: { enum: ['x', 'y'] }, b: { type: 'string', pattern: '^a$' } } },
    {
      a: 'z',
      b: 'b',
    },
  );
  assert.ok(messages.includes('Debe tener al menos 1 carácter.'), messages.join('\n'));
  assert.ok(messages.includes('Debe tener como máximo 1 elemento.'), messages.join('\n'));
  assert.ok(messages.includes('Debe tener al menos 2 caracteres.'), messages.join('\n'));
  const wrong = messages.flatMap((m) => spanishProblems(m, { sentence: true }).map((p) => `${p} — ${m}`));
  assert.deepEqual(wrong, []);
});

// The sales agent, driven through whole conversations over a hardware shop's catalog: a product with a price in
// cents, one with a single unit left, a combo written as a product id, a brand never named (it carries the space
// id) while the sales settings name the shop, a role that already names the shop, and the formal tone.
const AGENT = join(ROOT, 'plugins/ventas/dist/agent');
const SHOP = 'Ferretería El Martillo';

/** A product as the sales agent holds it: the sdk's catalog product plus shipping per city. */
type Product = CatalogProduct & { envio?: Record<string, number> };
const PRODUCTS: Product[] = [
  {
    id: 'taladro-x',
    nombre: 'Taladro percutor',
    descripcion: 'Taladro de 800 W con maletín',
    precio: 129,
    moneda: 'EUR',
    stock: 4,
    envio: { Madrid: 5.5 },
  },
  {
    id: 'broca-set',
    nombre: 'Juego de brocas',
    descripcion: 'Diez brocas para madera y metal',
    precio: 89.9,
    moneda: 'EUR',
    stock: 1,
    envio: { Madrid: 3 },
  },
  { id: 'martillo-01', nombre: 'Martillo de carpintero', descripcion: '', precio: 12.5, moneda: 'EUR', stock: 0 },
];
const SCRIPT = [
  'hola',
  '¿qué productos tienen?',
  '¿cuánto cuesta el taladro?',
  '¿hay stock del juego de brocas?',
  'quiero 3 juegos de brocas',
  'agrega 1 juego de brocas',
  'agrega el taladro',
  'agrega el martillo',
  '¿cuánto cuesta el envío a Madrid?',
  'ver mi cotización',
  'quita el taladro',
  '¿a qué ciudades envían?',
  '¿tienen garantía?',
  'gracias, adiós',
];

type Say = (m: string) => Promise<{ respuesta: string | null; descripcion: string }>;

async function conversation(options: Record<string, unknown>): Promise<{ say: Say }> {
  const { Conversation } = (await import(pathToFileURL(join(AGENT, 'test-fixtures.js')).href)) as {
    Conversation: new (o: Record<string, unknown>) => { say: Say };
  };
  return new Conversation({ products: structuredClone(PRODUCTS), ...options });
}

async function brandOf(overrides: Record<string, unknown>) {
  const { brand } = (await import(pathToFileURL(join(AGENT, 'test-fixtures.js')).href)) as {
    brand: (o: Record<string, unknown>) => Record<string, unknown> & {
      identidad: Record<string, string>;
      estilo: Record<string, unknown>;
    };
  };
  const b = brand({
    tacticas: {
      upsell_combos: { taladro: 'broca-set' },
      upsell_plantilla: 'Te recomiendo sumar {combo}. {argumento}',
      upsell_argumento: 'Así tienes la broca justa para cada material.',
      pregunta_cierre_obligatoria: false,
    },
    ...overrides,
  });
  return b;
}

test("every sentence the sales agent says names one shop, products by name and prices in the catalog's format", async () => {
  const namedBrand = { ...(await brandOf({})), name: SHOP };
  const unnamed = await brandOf({});
  const scenarios: [string, Record<string, unknown>][] = [
    ['sin marca', { config: { marca_activa: false, nombre_tienda: SHOP } }],
    ['sin marca ni nombre', { config: { marca_activa: false, nombre_tienda: '' } }],
    ['marca con nombre y el mismo nombre en ventas', { brand: namedBrand, config: { nombre_tienda: SHOP } }],
    [
      'marca sin nombre (el id del espacio), rol que ya nombra la tienda',
      {
        brand: {
          ...unnamed,
          name: 'deportes-ruiz',
          identidad: { ...unnamed.identidad, rol: `asesora de ventas de ${SHOP}` },
        },
        config: { nombre_tienda: SHOP },
      },
    ],
    ['marca formal', { brand: { ...namedBrand, estilo: { ...namedBrand.estilo, tono: ['formal'] } } }],
  ];
  const wrong: string[] = [];
  const spoken: string[] = [];
  for (const [name, options] of scenarios) {
    const conv = await conversation(options);
    for (const message of SCRIPT) {
      const r = await conv.say(message);
      for (const line of (r.respuesta ?? '').split('\n').filter((l) => l.trim() !== '')) {
        spoken.push(line);
        const where = `${name} / «${message}»: ${line}`;
        wrong.push(...spanishProblems(line, { allow: ['stock'] }).map((p) => `${where}: ${p}`));
        if (!/^[¿¡]?[\p{Lu}\d]/u.test(line)) wrong.push(`${where}: no empieza con mayúscula`);
        if (
          !/[.?!:]$/.test(line) &&
          !/^\d+ x /.test(line) &&
          !/^[\p{L} ]+: [\d.,]+ [A-Z]{3}(?:; [\p{L} ]+: [\d.,]+ [A-Z]{3})*$/u.test(line)
        ) {
          wrong.push(`${where}: no termina en punto`);
        }
        if (occurrences(line, SHOP) > 1) wrong.push(`${where}: el nombre de la tienda dos veces`);
        if (/deportes-ruiz/.test(line)) wrong.push(`${where}: el id del espacio como nombre de la tienda`);
        for (const p of PRODUCTS) if (line.includes(p.id)) wrong.push(`${where}: el id ${p.id} en una frase`);
      }
      if (occurrences(r.descripcion.split('\n')[0]!, SHOP) > 1)
        wrong.push(`${name}: descripción con la tienda dos veces`);
      if (/deportes-ruiz/.test(r.descripcion)) wrong.push(`${name}: descripción con el id del espacio`);
    }
  }
  if (process.env.SHOW_SPOKEN) console.log(spoken.join('\n'));
  assert.deepEqual(wrong, []);
  // What the scenarios must have made the agent say, so the checks above looked at the right sentences.
  const all = spoken.join('\n');
  assert.match(all, /89,90 EUR/);
  assert.match(all, /Te recomiendo sumar el juego de brocas\./);
  assert.match(all, /El precio del taladro percutor es 129 EUR\./);
  assert.match(all, /Queda 1 unidad del juego de brocas\./);
  assert.match(all, /¡Hola! Soy Sofía, asesora de ventas en Ferretería El Martillo\./);
  assert.match(all, /¡Hola! Soy Sofía, asesora de ventas de Ferretería El Martillo\./);
  assert.match(all, /¡Hola! Soy el asistente de ventas de la tienda\./);
});

test('every template of the agent (replies module) is exercised and checked, singular and plural', async () => {
  const R = (await import(pathToFileURL(join(AGENT, 'replies.js')).href)) as Record<string, unknown> & {
    TEXTS: Record<string, string>;
  };
  const [taladro, brocas, martillo] = PRODUCTS as [Product, Product, Product];
  const quote = (envio: boolean) => ({
    lineas: [{ product: brocas, cantidad: 1, importe: 89.9 }],
    moneda: 'EUR',
    subtotal: 89.9,
    total: envio ? 92.9 : 89.9,
    envio: envio ? { ciudad: 'Madrid', costo: 3 } : null,
    ciudad: envio ? 'Madrid' : 'Sevilla',
    sinEnvio: envio ? [] : [brocas],
  });
  const samples: Record<string, () => string[]> = {
    price: () => PRODUCTS.map((p) => `Cuesta ${(R.price as (p: Product) => string)(p)}.`),
    stockSentence: () => PRODUCTS.map(R.stockSentence as (p: Product) => string),
    productInfo: () => PRODUCTS.flatMap((p) => (R.productInfo as (p: Product) => string)(p).split('\n')),
    priceInfo: () => PRODUCTS.map(R.priceInfo as (p: Product) => string),
    whichOne: () => [(R.whichOne as (o: Product[]) => string)([taladro, brocas])],
    catalogList: () => [[], PRODUCTS].map((l) => (R.catalogList as (o: Product[]) => string)(l)),
    shippingInfo: () => [3, null].map((c) => (R.shippingInfo as (...a: unknown[]) => string)(brocas, 'Madrid', c)),
    shippingCities: () =>
      [[], ['Madrid'], ['Madrid', 'Sevilla']].map((c) => (R.shippingCities as (c: string[]) => string)(c)),
    quoteSummary: () => [true, false].flatMap((e) => (R.quoteSummary as (q: unknown) => string)(quote(e)).split('\n')),
    TEXTS: () => Object.values(R.TEXTS),
    greeting: () => [(R.greeting as (s: string) => string)('Soy Sofía, asesora de ventas en Ferretería El Martillo.')],
    added: () => [
      (R.added as (i: unknown[]) => string)([
        { product: brocas, cantidad: 1 },
        { product: taladro, cantidad: 2 },
      ]),
    ],
    removed: () => [(R.removed as (p: Product) => string)(taladro)],
    notInQuote: () => [(R.notInQuote as (p: Product) => string)(taladro)],
    outOfStockForQuote: () => [(R.outOfStockForQuote as (p: Product) => string)(martillo)],
    notEnoughStock: () =>
      [brocas, taladro].flatMap((p) => [0, 1, 2].map((y) => (R.notEnoughStock as (...a: unknown[]) => string)(p, y))),
    currencyMismatch: () => [(R.currencyMismatch as (...a: unknown[]) => string)(brocas, 'COP')],
    cityNoted: () => [(R.cityNoted as (c: string) => string)('Madrid')],
  };
  assert.deepEqual(Object.keys(R).sort(), Object.keys(samples).sort(), 'a new template needs its samples here');
  const wrong = Object.entries(samples).flatMap(([name, make]) =>
    make().flatMap((line) => spanishProblems(line, { allow: ['stock'] }).map((p) => `${name}: ${p} — ${line}`)),
  );
  assert.deepEqual(wrong, []);
  // A product without a description: its price after its name, not "Martillo de carpintero: Precio: …".
  assert.match((R.productInfo as (p: Product) => string)(martillo), /^Martillo de carpintero: 12[.,]50? EUR\./);
});
