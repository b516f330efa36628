// What the landing routes answer, for the OpenAPI document (views.ts builds these objects).
import { listSchema as list, objectSchema as object, pageSchema, type JsonSchema } from '@cerebro/sdk';
import { LENGTHS, SECTION_IDS, THEME_IDS, VERSION_STATES } from './model.js';

const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });
const str: JsonSchema = { type: 'string' };
const int: JsonSchema = { type: 'integer' };

const QUESTION = object(
  { id: str, pregunta: str, tipo: { type: 'string', enum: ['url', 'contacto', 'opcion'] }, opciones: list(str) },
  ['opciones'],
);
const CATALOG_FACT = object(
  {
    id: str,
    nombre: str,
    descripcion: str,
    precio: { type: 'number' },
    moneda: str,
    stock: int,
    sin_precio: { type: 'boolean' },
  },
  ['sin_precio'],
);
const DOCUMENT_FACT = object(
  {
    uso: { type: 'string', enum: ['descripcion', 'beneficios', 'caracteristicas', 'preguntas_frecuentes'] },
    pregunta: str,
    titulo: str,
    texto: str,
    fuentes: list(object({ documento: str, pagina: nullable(int), seccion: nullable(str) })),
  },
  ['titulo'],
);

export const VERSION_SCHEMA = object({
  numero: int,
  estado: { type: 'string', enum: [...VERSION_STATES] },
  origen: { type: 'string', enum: ['crear', 'refinar', 'validar'] },
  instrucciones: nullable(str),
  preguntas: list(QUESTION),
  motivo: nullable(str),
  avisos: list(str),
  secciones: list({ type: 'string', enum: [...SECTION_IDS] }),
  titular: nullable(str),
  cta_texto: nullable(str),
  tema_color: { type: 'string', enum: [...THEME_IDS] },
  longitud: { type: 'string', enum: [...LENGTHS] },
  hechos: object({ catalogo: list(CATALOG_FACT), documentos: list(DOCUMENT_FACT) }),
  marca: object({ aplicada: { type: 'boolean' }, nombre: nullable(str) }),
  redaccion: nullable({ type: 'string', enum: ['plantilla', 'modelo', 'manual'] }),
  bytes: nullable(int),
  creditos: int,
  creada: str,
  terminada: nullable(str),
});

const CATALOG_CHANGE = object({
  producto: str,
  campo: { type: 'string', enum: ['precio', 'stock', 'moneda', 'nombre', 'retirado'] },
  antes: {},
  ahora: {},
});

const SUMMARY_PROPERTIES: Record<string, JsonSchema> = {
  id: str,
  objetivo: str,
  tema: nullable(str),
  creada: str,
  actualizada: str,
  version_actual: nullable(int),
  ultima_version: object({ numero: int, estado: { type: 'string', enum: [...VERSION_STATES] } }),
  version_publicada: nullable({
    type: 'integer',
    description: 'La versión que sirve su dirección pública; null sin publicar.',
  }),
};

export const LANDING_SUMMARY_SCHEMA = object(SUMMARY_PROPERTIES);

export const PUBLICATION_SCHEMA = object({
  ruta: {
    type: 'string',
    description: 'Dirección pública, desde la raíz del servidor: `/api/pub/landing/{espacio}/p/{token}`.',
  },
  version: int,
  formulario: { type: 'boolean' },
  publicada: str,
  actualizada: str,
});

const STATS_SCHEMA = object({
  vistas: { type: 'integer', description: 'Visitas a la página publicada (contadas en el servidor, sin cookies).' },
  clics: { type: 'integer', description: 'Clics en el botón de la página.' },
  contactos: { type: 'integer', description: 'Contactos recibidos por el formulario.' },
});

export const LEAD_SCHEMA = object({
  id: str,
  landing: str,
  version: int,
  nombre: str,
  contacto: str,
  mensaje: str,
  conversacion: nullable({ type: 'string', description: 'La conversación de `ventas` en que se convirtió.' }),
  recibido: str,
});

export const LEAD_PAGE_SCHEMA = pageSchema('contactos', LEAD_SCHEMA);

export const LANDING_SCHEMA = object({
  ...SUMMARY_PROPERTIES,
  productos: list(str),
  publico: nullable(str),
  cta: object({ texto: nullable(str), url: nullable(str) }),
  contacto: nullable(str),
  idioma: { type: 'string', enum: ['es', 'en'] },
  estado: { type: 'string', enum: [...VERSION_STATES] },
  cambios_catalogo: list(CATALOG_CHANGE),
  versiones: list(VERSION_SCHEMA),
  publicacion: nullable(PUBLICATION_SCHEMA),
  estadisticas: STATS_SCHEMA,
});

export const LANDING_PAGE_SCHEMA = object({
  landings: list(LANDING_SUMMARY_SCHEMA),
  total: int,
  limite: int,
  desde: int,
});
