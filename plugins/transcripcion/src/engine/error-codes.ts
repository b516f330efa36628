import { defineErrors } from '@cerebro/sdk';

/**
 * The plugin's own error codes and statuses, fixed by the contract (section 7), which is why they are Spanish.
 * Declared in the manifest (`errors`): the host merges them into its one catalogue and the OpenAPI document.
 * Every body is `{detail: {codigo, detalle}, codigo}`.
 */
export const TranscriptionErrors = defineErrors({
  demasiado_grande: { status: 413, detail: 'El archivo supera el tamaño máximo de 25 MB.' },
  demasiado_largo: { status: 422, detail: 'El audio supera la duración máxima permitida.' },
  no_soportado: { status: 422, detail: 'El archivo no es un audio reconocible o no tiene pista de sonido.' },
  audio_invalido: { status: 422, detail: 'El audio está vacío, dañado o incompleto y no se pudo leer.' },
  ocupado: { status: 503, detail: 'Hay demasiadas transcripciones en curso; reintenta en unos segundos.' },
  motor_no_listo: { status: 503, detail: 'El motor de transcripción no está listo; reintenta en unos segundos.' },
});
