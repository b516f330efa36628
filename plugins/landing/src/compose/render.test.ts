// Every combination the composer can produce (theme × length × language × with or without a portada, brand or
// products) is a page the inspector accepts and the sanitizer leaves whole.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseDocument, DomUtils } from 'htmlparser2';
import {
  LENGTHS,
  SECTION_IDS,
  THEME_IDS,
  type Brief,
  type CatalogFact,
  type DocumentFact,
  type Plan,
  type Voice,
} from '../model.js';
import { inspectLanding } from '../safety/inspect.js';
import { sanitizeLanding } from '../safety/sanitize.js';
import { composeCopy, emptySections } from './copy.js';
import { renderPage } from './render.js';

const CATALOG: CatalogFact[] = [
  {
    id: 'a',
    nombre: 'Zapatilla <Trail> & "Andes"',
    descripcion: 'Con suela de agarre.',
    precio: 289900,
    moneda: 'COP',
    stock: 14,
  },
  { id: 'b', nombre: 'Calcetines', descripcion: '', precio: 0, moneda: 'COP', stock: 0, sin_precio: true },
];
const SOURCE = { documento: 'guia.md', pagina: 2, seccion: 'Guía › Beneficios' };
const DOCS: DocumentFact[] = [
  { uso: 'descripcion', pregunta: '¿Qué es?', texto: 'Zapatillas para correr [1].', fuentes: [SOURCE] },
  {
    uso: 'beneficios',
    pregunta: '¿Beneficios?',
    texto: 'El beneficio es la amortiguación: reduce el impacto. Otra ventaja es el agarre: no resbala.',
    fuentes: [SOURCE],
  },
  {
    uso: 'caracteristicas',
    pregunta: '¿Características?',
    texto: '- Plantilla extraíble\n- Refuerzo en el talón',
    fuentes: [SOURCE],
  },
  {
    uso: 'preguntas_frecuentes',
    pregunta: '¿Garantía de X?',
    titulo: '¿Qué garantía tiene?',
    texto: 'Cubre defectos de fabricación.',
    fuentes: [SOURCE],
  },
];
const VOICE: Voice = {
  nombre: 'Deportes <Ruiz>',
  tono: ['formal'],
  rasgos: [],
  emojis_obligatorios: ['👟'],
  emojis_permitidos: ['👟'],
};

function brief(idioma: 'es' | 'en', productos: boolean): Brief {
  return {
    objetivo: 'Vender',
    tema: productos ? null : 'club de running',
    productos: productos ? ['a', 'b'] : [],
    publico: 'corredores',
    secciones: null,
    cta: { texto: 'Comprar', url: 'https://tienda.example/?a=1&b="2"' },
    contacto: 'ventas@tienda.example',
    idioma,
    tema_color: null,
  };
}

const elements = (html: string) =>
  DomUtils.findAll(() => true, parseDocument(html).children)
    .map((e) => e.name)
    .join(',');

test('every theme, length, language and section set renders a page that passes every check and survives sanitizing whole', () => {
  let pages = 0;
  for (const tema_color of THEME_IDS) {
    for (const longitud of LENGTHS) {
      for (const idioma of ['es', 'en'] as const) {
        for (const withHero of [true, false]) {
          for (const voice of [null, VOICE]) {
            const b = brief(idioma, pages % 2 === 0);
            const catalog = b.productos.length ? CATALOG : [];
            const plan: Plan = {
              secciones: SECTION_IDS.filter((s) => withHero || s !== 'hero'),
              titular: null,
              cta_texto: null,
              tema_color,
              longitud,
            };
            const copy = composeCopy({ brief: b, plan, catalog, documents: DOCS, voice });
            const sections = plan.secciones.filter((s) => !emptySections(copy, plan.secciones).includes(s));
            const html = renderPage(copy, plan, sections);
            const label = `${tema_color}/${longitud}/${idioma}/${withHero}/${voice?.nombre ?? '-'}`;
            assert.deepEqual(inspectLanding(html), [], label);
            const clean = sanitizeLanding(html);
            assert.equal(elements(clean), elements(html), `${label}: the sanitizer changed the page`);
            assert.match(html, new RegExp(`<html lang="${idioma}">`));
            assert.doesNotMatch(html, /<Trail>|<Ruiz>|"2"/, 'every text and URL is escaped');
            pages++;
          }
        }
      }
    }
  }
  assert.equal(pages, THEME_IDS.length * LENGTHS.length * 2 * 2 * 2);
});

test('the composer quotes only catalog figures: formatted prices, stock wording, "precio a consultar"', () => {
  const plan: Plan = {
    secciones: ['hero', 'precios'],
    titular: null,
    cta_texto: null,
    tema_color: 'azul',
    longitud: 'media',
  };
  const copy = composeCopy({ brief: brief('es', true), plan, catalog: CATALOG, documents: [], voice: null });
  assert.deepEqual(
    copy.precios.productos.map((p) => [p.precio, p.disponibilidad]),
    [
      ['289.900 COP', 'Disponible'],
      ['Precio a consultar', 'Agotado por ahora'],
    ],
  );
  assert.equal(copy.hero.titular, 'Zapatilla <Trail> & "Andes" y Calcetines');
});

test('benefit sentences become titled cards; citation and Markdown marks never reach the page', () => {
  const plan: Plan = {
    secciones: ['hero', 'beneficios', 'caracteristicas'],
    titular: null,
    cta_texto: null,
    tema_color: 'azul',
    longitud: 'larga',
  };
  const copy = composeCopy({ brief: brief('es', false), plan, catalog: [], documents: DOCS, voice: VOICE });
  assert.deepEqual(copy.beneficios.items, [
    { titulo: 'Amortiguación', texto: 'Reduce el impacto.' },
    { titulo: 'Agarre', texto: 'No resbala.' },
  ]);
  assert.equal(copy.hero.subtitulo.includes('[1]'), false);
  assert.deepEqual(copy.caracteristicas.items, ['Plantilla extraíble.', 'Refuerzo en el talón.']);
  assert.equal(copy.cta.texto, 'Cuéntenos qué necesita y le ayudamos a elegir.', 'a formal brand speaks as usted');
});
