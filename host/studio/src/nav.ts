/** Pages of a space; `module` names the module the page needs (core pages need none), `role` who it is for. */
export interface SpacePage {
  slug: string;
  label: string;
  module?: string;
  /** The least member role the page is for (owners see every page). */
  role?: 'edita' | 'administra';
}

export const SPACE_PAGES: SpacePage[] = [
  { slug: 'documentos', label: 'Documentos' },
  { slug: 'preguntar', label: 'Preguntar' },
  { slug: 'historial', label: 'Historial de preguntas' },
  { slug: 'configuracion', label: 'Configuración del Cerebro' },
  { slug: 'api', label: 'Ajustes de la API', role: 'administra' },
  { slug: 'creditos', label: 'Créditos' },
  { slug: 'webhooks', label: 'Webhooks', role: 'administra' },
  { slug: 'actividad', label: 'Actividad', role: 'administra' },
  { slug: 'miembros', label: 'Miembros', role: 'administra' },
  { slug: 'marca', label: 'Marca', module: 'marca' },
  { slug: 'catalogo', label: 'Catálogo', module: 'ventas' },
  { slug: 'conversaciones', label: 'Conversaciones', module: 'ventas' },
  { slug: 'transcripcion', label: 'Transcripción', module: 'transcripcion', role: 'edita' },
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
