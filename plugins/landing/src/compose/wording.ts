// The fixed words of a page (section titles, button and link texts) per language and form of address. The brand's
// tone decides the form: `formal` speaks to the reader as "usted", every other tone (and no brand) as "tú".
import type { Language } from '../model.js';

export type Address = 'tu' | 'usted';

export interface Words {
  beneficios: (tema: string) => string;
  caracteristicas: string;
  precios: string;
  preguntas: string;
  ctaTitulo: string;
  ctaTexto: string;
  ctaBoton: string;
  contactoTitulo: string;
  contactoTexto: string;
  disponible: string;
  ultimas: (n: number) => string;
  agotado: string;
  consultarPrecio: string;
  pensadoPara: (publico: string) => string;
  introPor: (tema: string) => string;
  pie: (nombre: string) => string;
  navegacion: string;
}

const ES_TU: Words = {
  beneficios: (tema) => `Por qué elegir ${tema}`,
  caracteristicas: 'Características',
  precios: 'Productos y precios',
  preguntas: 'Preguntas frecuentes',
  ctaTitulo: '¿Hablamos?',
  ctaTexto: 'Cuéntanos qué necesitas y te ayudamos a elegir.',
  ctaBoton: 'Quiero más información',
  contactoTitulo: 'Contacto',
  contactoTexto: 'Escríbenos cuando quieras:',
  disponible: 'Disponible',
  ultimas: (n) => `Quedan ${n} unidades`,
  agotado: 'Agotado por ahora',
  consultarPrecio: 'Precio a consultar',
  pensadoPara: (p) => `Pensado para ${p}.`,
  introPor: (tema) => `Todo lo que necesitas saber sobre ${tema}.`,
  pie: (nombre) => `${nombre}. Información tomada del catálogo y de los documentos de la tienda.`,
  navegacion: 'Secciones de la página',
};

const ES_USTED: Words = {
  ...ES_TU,
  ctaTitulo: '¿Conversamos?',
  ctaTexto: 'Cuéntenos qué necesita y le ayudamos a elegir.',
  contactoTexto: 'Escríbanos cuando quiera:',
  introPor: (tema) => `Todo lo que necesita saber sobre ${tema}.`,
};

const EN: Words = {
  beneficios: (tema) => `Why choose ${tema}`,
  caracteristicas: 'Features',
  precios: 'Products and prices',
  preguntas: 'Frequently asked questions',
  ctaTitulo: 'Shall we talk?',
  ctaTexto: 'Tell us what you need and we will help you choose.',
  ctaBoton: 'Tell me more',
  contactoTitulo: 'Contact',
  contactoTexto: 'Write to us any time:',
  disponible: 'In stock',
  ultimas: (n) => `Only ${n} left`,
  agotado: 'Out of stock',
  consultarPrecio: 'Price on request',
  pensadoPara: (p) => `Made for ${p}.`,
  introPor: (tema) => `Everything you need to know about ${tema}.`,
  pie: (nombre) => `${nombre}. Information from the shop's catalog and documents.`,
  navegacion: 'Page sections',
};

export function wordsFor(idioma: Language, address: Address): Words {
  if (idioma === 'en') return EN;
  return address === 'usted' ? ES_USTED : ES_TU;
}
