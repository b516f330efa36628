import type { CerebroService } from '@cerebro/sdk';
import type { Support } from './evidence.js';

export const NO_DATA = 'SIN_DATOS';

const SYSTEM = `Redactas el valor de un campo de una ficha a partir de pasajes de documentos.
Responde solo con el valor, en una o dos frases, usando únicamente lo que dicen los pasajes y citándolos como [n].
No añadas nada que los pasajes no digan. Si los pasajes no dicen el valor, responde exactamente ${NO_DATA}.`;

export interface Worded {
  /** null: the model says the passages do not hold the value. */
  text: string | null;
  /** Indexes (0-based) into the supports the text cites. */
  cited: number[];
}

/**
 * The value worded by the configured chat model from the supporting passages only. Citations are read back from
 * the `[n]` markers (unknown numbers dropped, markers removed from the text); a text citing nothing cites every
 * passage it was given, since those are all it saw.
 */
export async function wordValue(
  cerebro: CerebroService,
  topic: string,
  field: string,
  question: string,
  supports: readonly Support[],
  signal: AbortSignal,
): Promise<Worded> {
  const passages = supports
    .map(
      (s, i) =>
        `[${i + 1}] (${s.hit.documento}${s.hit.seccion ? ` › ${s.hit.seccion}` : ''})\n${s.hit.texto.slice(0, 1500)}`,
    )
    .join('\n\n');
  const answer = (
    await cerebro.complete(
      [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: `Tema: ${topic}\nCampo: ${field}\nPregunta: ${question}\n\nPasajes:\n${passages}` },
      ],
      { signal, maxTokens: 200 },
    )
  ).trim();
  if (!answer || answer.includes(NO_DATA)) return { text: null, cited: [] };
  const cited = [
    ...new Set(
      [...answer.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]) - 1).filter((i) => i >= 0 && i < supports.length),
    ),
  ];
  const text = answer.replace(/\s*\[\d+\]/g, '').trim();
  return { text, cited: cited.length ? cited : supports.map((_, i) => i) };
}
