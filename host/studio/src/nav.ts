/** Pages of a space; `module` names the module the page needs (core pages need none). */
export interface SpacePage {
  slug: string;
  label: string;
  module?: string;
}

export const SPACE_PAGES: SpacePage[] = [
  { slug: 'documentos', label: 'Documentos' },
  { slug: 'preguntar', label: 'Preguntar' },
  { slug: 'historial', label: 'Historial de preguntas' },
  { slug: 'configuracion', label: 'Configuración del Cerebro' },
  { slug: 'api', label: 'Ajustes de la API' },
  { slug: 'creditos', label: 'Créditos' },
  { slug: 'webhooks', label: 'Webhooks' },
  { slug: 'actividad', label: 'Actividad' },
  { slug: 'marca', label: 'Marca', module: 'marca' },
  { slug: 'catalogo', label: 'Catálogo', module: 'ventas' },
  { slug: 'conversaciones', label: 'Conversaciones', module: 'ventas' },
  { slug: 'transcripcion', label: 'Transcripción', module: 'transcripcion' },
  { slug: 'fuentes', label: 'Fuentes', module: 'fuentes' },
  { slug: 'landings', label: 'Landings', module: 'landing' },
];

export const spacePath = (space: string, slug: string): string => `espacios/${encodeURIComponent(space)}/${slug}`;

export const MODULE_NAMES: Record<string, string> = {
  api: 'API',
  marca: 'Marca',
  ventas: 'Ventas',
  transcripcion: 'Transcripción',
  fuentes: 'Fuentes',
  landing: 'Landings',
};
