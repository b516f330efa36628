// With a chat endpoint configured, the model words the copy: it gets the composed texts (already built from the
// catalog and the documents) and the brand's voice, and returns the same fields reworded. Product names, prices and
// stock never go through it, and the finished page is still figure-checked like any other.
import type { CerebroService } from '@cerebro/sdk';
import type { Voice } from '../model.js';
import { clip, type PageCopy } from './copy.js';

interface Wordable {
  titular: string;
  subtitulo: string;
  beneficios: string[];
  cta_titulo: string;
  cta_texto: string;
}

function systemPrompt(voice: Voice | null, idioma: string): string {
  const brand = voice
    ? ` Escribes para la marca ${voice.nombre}, con tono ${voice.tono.join(', ') || 'neutro'}${voice.rasgos.length ? ` y estos rasgos: ${voice.rasgos.join(', ')}` : ''}.${voice.emojis_permitidos.length ? ` Solo puedes usar estos emojis: ${voice.emojis_permitidos.join(' ')}.` : ' No uses emojis.'}`
    : ' Usa un tono claro y cercano, sin emojis.';
  return (
    `Eres redactor de páginas de aterrizaje.${brand} Reescribe los textos del JSON que te dan en ${idioma === 'en' ? 'inglés' : 'español'}, más persuasivos y breves, conservando su significado. ` +
    'No añadas cifras, precios, plazos, descuentos, porcentajes, garantías ni datos que no estén en el texto. Responde solo con un objeto JSON con exactamente las mismas claves y el mismo número de elementos en las listas.'
  );
}

function parse(text: string, shape: Wordable): Wordable | null {
  const m = /\{[\s\S]*\}/.exec(text);
  if (!m) return null;
  let value: unknown;
  try {
    value = JSON.parse(m[0]);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  const str = (k: keyof Wordable, max: number) =>
    typeof v[k] === 'string' && (v[k] as string).trim().length > 0 && (v[k] as string).length <= max
      ? (v[k] as string).trim()
      : null;
  const beneficios =
    Array.isArray(v.beneficios) &&
    v.beneficios.length === shape.beneficios.length &&
    v.beneficios.every((b) => typeof b === 'string' && b.trim() && b.length <= 600)
      ? (v.beneficios as string[]).map((b) => b.trim())
      : null;
  const titular = str('titular', 120);
  const subtitulo = str('subtitulo', 400);
  const ctaTitulo = str('cta_titulo', 80);
  const ctaTexto = str('cta_texto', 300);
  if (!titular || !subtitulo || !beneficios || !ctaTitulo || !ctaTexto) return null;
  return { titular, subtitulo, beneficios, cta_titulo: ctaTitulo, cta_texto: ctaTexto };
}

/** The copy reworded by the model, or null when it failed or answered something unusable (the template copy stays). */
export async function rewordCopy(
  cerebro: CerebroService,
  copy: PageCopy,
  voice: Voice | null,
  keepHeadline: boolean,
  signal: AbortSignal,
): Promise<PageCopy | null> {
  const shape: Wordable = {
    titular: copy.hero.titular,
    subtitulo: copy.hero.subtitulo,
    beneficios: copy.beneficios.items.map((i) => i.texto),
    cta_titulo: copy.cta.titulo,
    cta_texto: copy.cta.texto,
  };
  let answer: string;
  try {
    answer = await cerebro.complete(
      [
        { role: 'system', content: systemPrompt(voice, copy.idioma) },
        { role: 'user', content: JSON.stringify(shape) },
      ],
      { signal, maxTokens: 800 },
    );
  } catch (err) {
    signal.throwIfAborted();
    return null;
  }
  const worded = parse(answer, shape);
  if (!worded) return null;
  return {
    ...copy,
    hero: { ...copy.hero, titular: keepHeadline ? copy.hero.titular : worded.titular, subtitulo: worded.subtitulo },
    descripcion: clip(worded.subtitulo, 160),
    beneficios: {
      ...copy.beneficios,
      items: copy.beneficios.items.map((i, n) => ({ ...i, texto: worded.beneficios[n] })),
    },
    cta: { titulo: worded.cta_titulo, texto: worded.cta_texto },
  };
}
