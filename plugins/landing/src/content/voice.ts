import type { BrandReader, SpaceDirectory } from '@cerebro/sdk';
import type { Voice } from '../model.js';

export interface VoiceOutcome {
  voice: Voice | null;
  aviso: string | null;
}

/**
 * The brand's voice applies when the space has the `marca` module and its brand is `activo` and named (a brand
 * never configured is named after the space id). A brand module that
 * is absent or fails leaves the page in a neutral voice, with a warning when it failed.
 */
export async function brandVoice(
  reader: BrandReader | null,
  spaces: SpaceDirectory,
  spaceId: string,
): Promise<VoiceOutcome> {
  if (!reader || !(await spaces.moduleEnabled(spaceId, 'marca'))) return { voice: null, aviso: null };
  try {
    const brand = await reader.read(spaceId);
    // A brand never configured answers defaults named after the space: there is no voice to speak with yet.
    if (!brand.activo || brand.name === spaceId) return { voice: null, aviso: null };
    return {
      voice: {
        nombre: brand.name,
        tono: [...brand.estilo.tono],
        rasgos: [...brand.estilo.rasgos],
        emojis_obligatorios: [...brand.estilo.emojis_obligatorios],
        emojis_permitidos: [...brand.estilo.emojis_permitidos],
      },
      aviso: null,
    };
  } catch {
    return { voice: null, aviso: 'El módulo marca no respondió: la página usa una voz neutra.' };
  }
}
