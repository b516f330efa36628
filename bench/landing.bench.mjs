// `npm run bench -- landing`: what the safety of a landing costs. Per page, in the same run: composing and
// rendering alone (the baseline), then the whole check every stored version passes (sanitize-html allow-list,
// inspection before and after, figure check), and `validar` on a hand-edited page near the 60 KB limit.
import { composeCopy } from '../plugins/landing/dist/compose/copy.js';
import { renderPage } from '../plugins/landing/dist/compose/render.js';
import { unsupportedFigures } from '../plugins/landing/dist/safety/figures.js';
import { inspectLanding, visibleText } from '../plugins/landing/dist/safety/inspect.js';
import { sanitizeLanding } from '../plugins/landing/dist/safety/sanitize.js';

const catalog = [
  {
    id: 'a',
    nombre: 'Zapatilla Trail Andes',
    descripcion: 'Zapatilla de trail con suela de agarre profundo.',
    precio: 289900,
    moneda: 'COP',
    stock: 14,
  },
  {
    id: 'b',
    nombre: 'Zapatilla Ruta Ligera',
    descripcion: 'Ligera y transpirable para entrenar a diario.',
    precio: 219900,
    moneda: 'COP',
    stock: 3,
  },
  {
    id: 'c',
    nombre: 'Zapatilla Maratón Pro',
    descripcion: 'Placa de carbono para competir.',
    precio: 649900,
    moneda: 'COP',
    stock: 0,
  },
];
const source = { documento: 'guia.md', pagina: null, seccion: 'Guía' };
const documents = [
  {
    uso: 'descripcion',
    pregunta: '¿Qué es?',
    texto: 'Las zapatillas de running están pensadas para corredores que entrenan varias veces por semana.',
    fuentes: [source],
  },
  {
    uso: 'beneficios',
    pregunta: '¿Beneficios?',
    texto:
      'El principal beneficio es la amortiguación: la espuma reduce el impacto. Otra ventaja es el agarre: la suela se agarra al asfalto mojado.',
    fuentes: [source],
  },
  {
    uso: 'caracteristicas',
    pregunta: '¿Características?',
    texto: 'Tienen plantilla extraíble y refuerzo en el talón.',
    fuentes: [source],
  },
  {
    uso: 'preguntas_frecuentes',
    pregunta: '¿Garantía?',
    titulo: '¿Qué garantía tiene?',
    texto: 'La garantía cubre defectos de fabricación durante seis meses.',
    fuentes: [source],
  },
];
const brief = {
  objetivo: 'Vender zapatillas',
  tema: 'zapatillas de running',
  productos: ['a', 'b', 'c'],
  publico: 'corredores',
  secciones: null,
  cta: { texto: 'Comprar', url: 'https://tienda.example' },
  contacto: 'ventas@tienda.example',
  idioma: 'es',
  tema_color: null,
};
const plan = {
  secciones: ['hero', 'beneficios', 'caracteristicas', 'precios', 'preguntas_frecuentes', 'cta', 'contacto'],
  titular: null,
  cta_texto: null,
  tema_color: 'azul',
  longitud: 'media',
};
const texts = [brief.objetivo, brief.tema, brief.publico, ...documents.map((d) => d.texto)];

function perPage(fn, ms = 1500) {
  for (let i = 0; i < 50; i++) fn(); // warm-up
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < ms) {
    fn();
    n++;
  }
  return (performance.now() - start) / n;
}

const render = () => renderPage(composeCopy({ brief, plan, catalog, documents, voice: null }), plan, plan.secciones);
const baseline = perPage(render);
const checked = perPage(() => {
  const rendered = render();
  const html = sanitizeLanding(rendered);
  if (inspectLanding(rendered).length + inspectLanding(html).length > 0)
    throw new Error('a generated page failed its checks');
  if (unsupportedFigures(visibleText(html), { catalog, texts }).length > 0) throw new Error('a figure without source');
});
const page = render();
const big =
  page
    .replace(
      '</main>',
      `<section><h2>Más</h2>${'<p>Relleno de una página editada a mano con mucho texto. </p>'.repeat(800)}</section></main>`,
    )
    .slice(0, 60 * 1024 - 200) + '</main></body></html>';
const validar = perPage(() => {
  inspectLanding(big);
  sanitizeLanding(big);
  unsupportedFigures(visibleText(big), { catalog, texts: [] }, { onlyMoney: true });
});

console.log(`page: ${Buffer.byteLength(page)} bytes; validar page: ${Buffer.byteLength(big)} bytes`);
console.log(`compose + render (baseline):                        ${baseline.toFixed(3)} ms/page`);
console.log(
  `compose + render + sanitize + inspect ×2 + figures: ${checked.toFixed(3)} ms/page (${(checked / baseline).toFixed(1)}× the baseline)`,
);
console.log(
  `validar on a ${(Buffer.byteLength(big) / 1024).toFixed(0)} KB page (inspect + sanitize + prices):  ${validar.toFixed(3)} ms`,
);
