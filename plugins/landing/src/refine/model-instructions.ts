// With a chat endpoint, `refinar` takes free text: the model translates it into the documented instruction set,
// which is then parsed and applied like hand-written instructions (nothing the set cannot express gets through).
import type { CerebroService } from '@cerebro/sdk';
import { SECTION_IDS, THEME_IDS } from '../model.js';

const PROMPT =
  'Traduces peticiones de cambio de una página de aterrizaje a instrucciones de esta lista, una por línea y sin nada más:\n' +
  'titular: <texto>\nbotón: <texto>\nañade <sección>\nquita <sección>\norden: <sección>, <sección>, …\nmueve <sección> antes de <sección>\n' +
  'mueve <sección> al principio\nmueve <sección> al final\ntema: <tema>\nmás corta\nmás larga\n' +
  `Secciones: ${SECTION_IDS.join(', ')}. Temas: ${THEME_IDS.join(', ')}. Si la petición no cabe en la lista, responde solo NINGUNA.`;

/** The model's translation, or null when it failed or found nothing expressible. */
export async function instructionsFromModel(
  cerebro: CerebroService,
  request: string,
  signal: AbortSignal,
): Promise<string | null> {
  try {
    const answer = await cerebro.complete(
      [
        { role: 'system', content: PROMPT },
        { role: 'user', content: request },
      ],
      { signal, maxTokens: 300 },
    );
    const text = answer.trim();
    return text === '' || /^NINGUNA\b/i.test(text) ? null : text;
  } catch {
    signal.throwIfAborted();
    return null;
  }
}
