// Shapes of the API answers the console reads (README "Payloads designed here" and the plugins' READMEs).

export interface Owner {
  id: string;
  nombre: string;
  email: string | null;
  /** false: signed in with a one-time link and no password set yet. */
  tiene_clave?: boolean;
}

export interface SessionInfo {
  propietario: Owner;
  csrf: string;
  expira: string;
}

export interface Space {
  id: string;
  nombre: string;
  modulos: string[];
  api_activa: boolean;
  prueba_hasta?: string | null;
}

export interface Account {
  id: string;
  estado_pago: 'al_dia' | 'impagada' | 'suspendida';
  impagada_desde: string | null;
  saldo: number;
  /** What all the spaces of the account store, and its quota (null: no limit). */
  almacenamiento: { bytes: number; documentos: number; max_bytes: number | null; max_documentos: number | null };
}

export type Permission = 'lee' | 'escribe';

export interface KeyRecord {
  id: string;
  nombre: string;
  espacios: string[];
  permiso: Permission;
  creado: string;
  token?: string;
  llamadas?: number;
  por_ruta?: Record<string, number>;
  ultimo_uso?: string | null;
  revocado?: boolean;
}

export type DocumentState = 'en_cola' | 'procesando' | 'listo' | 'fallido' | 'rechazado';

export interface DocumentRecord {
  id: string;
  nombre: string;
  formato: string;
  bytes: number;
  estado: DocumentState;
  progreso: number;
  etapa: string | null;
  error: { codigo: string; motivo: string } | null;
  version: number;
  pasajes: number;
  paginas: number | null;
  actualizado: string;
}

export interface IndexingStatus {
  estado: 'vacio' | 'indexando' | 'listo';
  total: number;
  listos: number;
  fallidos: number;
  progreso: number;
  documentos: DocumentRecord[];
}

export interface Source {
  n: number;
  documento: string;
  pasaje: number;
  pagina: number | null;
  seccion: string | null;
  puntuacion: number;
  extracto: string;
  citada: boolean;
}

export interface Answer {
  conversacion: string;
  respuesta: string;
  encontrada: boolean;
  fuentes: Source[];
  cache: boolean;
  creditos: number;
}

export interface CerebroConfig {
  instrucciones: string;
  idioma: string;
  longitud: 'corta' | 'media' | 'larga';
  pasajes: number;
  relevancia_minima: number;
  texto_sin_respuesta: string;
  citas: boolean;
  cache_segundos: number;
}

export interface ApiConfig {
  api_activa: boolean;
  limite_por_minuto: number | null;
  cuota_diaria: number | null;
  ips_permitidas: string[];
}

export interface Movement {
  id: string;
  delta: number;
  saldo: number;
  motivo: 'consumo' | 'reembolso' | 'recarga' | 'ajuste';
  espacio: string | null;
  ruta: string | null;
  fecha: string;
}

export interface Pool {
  cuenta: string;
  saldo: number;
  movimientos: Movement[];
}

export interface Brand {
  name: string;
  activo: boolean;
  identidad: { nombre_agente: string; rol: string; linea: string };
  estilo: {
    tono: string[];
    rasgos: string[];
    emojis_permitidos: string[];
    emojis_obligatorios: string[];
    max_lineas: number;
    solo_texto_plano: boolean;
  };
  tacticas: {
    upsell_activo: boolean;
    upsell_combos: Record<string, string>;
    upsell_argumento: string;
    upsell_plantilla: string;
    pregunta_cierre_obligatoria: boolean;
    preguntas_cierre: string[];
  };
}

export interface SalesConversation {
  conversacion: string;
  estado: 'activa' | 'derivada';
  motivo_derivacion: string | null;
  contacto: { nombre?: string; telefono?: string; email?: string } | null;
  ciudad: string | null;
  num_mensajes: number;
  creada: string;
  actualizada: string;
  mensajes?: { rol: string; texto: string; tipo?: string; fecha: string }[];
}

export interface Product {
  id: string;
  nombre: string;
  descripcion?: string;
  precio: number;
  moneda: string;
  stock: number;
}

/** `GET /mod/transcripcion/{espacio}/estado`: whether a transcription would be accepted now. */
export interface TranscriptionReadiness {
  listo: boolean;
  motor: string;
  /** The model is loading: waiting is enough. */
  reintentar: boolean;
  detalle: string | null;
}

export interface Transcription {
  texto: string;
  vacio: boolean;
  idioma: string | null;
  duracion_s: number;
  latencia_ms: number;
}
