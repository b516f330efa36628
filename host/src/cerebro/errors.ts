// Typed failures of the Cerebro engine. `code` is stable and machine-readable; `reason` is one Spanish sentence
// that can be shown to the person who uploaded the document.

export type ExtractionErrorCode =
  | 'no_soportado'
  | 'vacio'
  | 'cifrado'
  | 'corrupto'
  | 'tiempo_agotado'
  | 'interrumpido'
  | 'no_encontrado'
  | 'demasiado_grande'
  | 'sin_espacio'
  | 'no_disponible'
  | 'error_interno';

export class CerebroExtractionError extends Error {
  override readonly name = 'CerebroExtractionError';
  constructor(
    readonly code: ExtractionErrorCode,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** Plain-object form that survives the structured clone between worker threads. */
export interface SerializedExtractionError {
  code: ExtractionErrorCode;
  reason: string;
}

export const reasons = {
  unsupported: (what: string) =>
    `Formato no soportado: ${what}. Se admiten PDF, DOCX, HTML, Markdown, texto, CSV, XLSX e imágenes PNG, JPEG y TIFF.`,
  empty: 'El archivo está vacío o no contiene texto legible.',
  pdfTooMuchText: (megabytes: number) =>
    `El PDF contiene demasiado texto para procesarse (más de ${megabytes} MB de texto extraído); divídelo en varios archivos.`,
  pdfNoText: 'El PDF no contiene texto extraíble (puede ser un documento escaneado sin reconocimiento de texto).',
  ocrMissing:
    'El documento es una imagen o un PDF escaneado y el reconocimiento de texto (OCR) no está disponible en este servidor: falta tesseract (paquetes Debian tesseract-ocr, tesseract-ocr-spa).',
  imageNoText: 'No se reconoció texto en la imagen.',
  imageTooLarge: (what: string) => `La imagen es demasiado grande para el reconocimiento de texto (${what}).`,
  encrypted: 'El archivo está cifrado o protegido con contraseña y no se puede leer.',
  readerMissing: (format: string, pkg: string) =>
    `Este servidor no tiene instalado el lector de ${format} (paquete ${pkg}); pide a quien lo administra que lo instale o sube el documento en otro formato.`,
  corrupt: (what: string) => `El archivo ${what} está dañado o no es válido y no se pudo leer.`,
  binary: 'El archivo parece binario, no texto.',
  legacyOffice:
    'El archivo está cifrado con contraseña o es un documento de Office antiguo (.doc/.xls), que no se admite.',
  timeout: (seconds: number) => `El procesamiento superó el tiempo límite de ${seconds} s y se canceló.`,
  interrupted: 'El procesamiento se interrumpió varias veces (reinicios o fallos) y se abandonó.',
  missing: 'El archivo original ya no está disponible en el almacenamiento.',
  tooLarge:
    'El archivo descomprimido sería demasiado grande para procesarse (más de 300 MB en DOCX o 100 MB en XLSX, o comprimido de forma anómala).',
  internal: 'Error interno al procesar el archivo; vuelve a subirlo o contacta con soporte si se repite.',
  diskFull:
    'El disco del servidor se llenó mientras se indexaba el documento; vuelve a subirlo cuando el operador haya liberado espacio.',
  originalsUnavailable:
    'El almacén de originales no respondió durante varios minutos y el documento no se indexó; vuelve a subirlo cuando el almacén vuelva a estar disponible.',
} as const;
