// Prompt for an external wording model (any OpenAI-compatible chat endpoint). The model only
// rewrites a draft whose facts are already right; its output still goes through the figure
// checker, and the draft is sent instead when it fails.
import type { WordingRequest } from './ports.js';

export interface WordingMessage {
  role: 'system' | 'user';
  content: string;
}

const INSTRUCTIONS = [
  'Reescribe el BORRADOR como tu respuesta al cliente, con tu tono y tu estilo.',
  'Conserva todos los datos del borrador y cada cifra exactamente como está escrita.',
  'No agregues cifras, productos, plazos, descuentos ni disponibilidad que no estén en el borrador.',
  'Si el borrador termina en una pregunta, termina con esa misma pregunta; si no, no termines con una pregunta.',
  'Responde solo con el texto para el cliente.',
].join(' ');

export function wordingMessages(request: WordingRequest): WordingMessage[] {
  return [
    { role: 'system', content: `${request.descripcion}\n\n${INSTRUCTIONS}` },
    { role: 'user', content: `Mensaje del cliente:\n${request.mensaje}\n\nBORRADOR:\n${request.borrador}` },
  ];
}
