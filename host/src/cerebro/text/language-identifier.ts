// A general language identifier (eld, n-gram based, 60 languages) for the texts the Spanish/English function-word
// detector cannot place: a French, Portuguese, Italian or German document would otherwise be stemmed as Spanish.
// It is loaded only when a text first needs it (its data costs about half a second per worker thread), and only
// asked about texts with few Spanish or English function words (analyzer.ts), so Spanish and English documents pay
// nothing and short technical Spanish, where eld measured worse than the function words, is never left to it.

/** The ISO 639-1 code of a text's language when the identifier is sure of it, else null. */
export type IdentifyLanguage = (text: string) => string | null;

/** Enough text to tell a language; more only costs time (eld's time grows with the text). */
const SAMPLE_CHARS = 1_000;

let loading: Promise<IdentifyLanguage> | null = null;

/** Never sure: what the engine uses when eld is not installed (the function-word detector decides alone). */
const NEVER_SURE: IdentifyLanguage = () => null;

/**
 * The identifier built on what `load` imports. eld (~9 MB) is an optional peer of @cerebro/host, installed by the
 * service and left out of plugin projects that install the host only for the testing kit; without it no text is
 * identified, which the analyzer already handles as "not sure".
 */
export async function identifierFrom(load: () => Promise<typeof import('eld/extrasmall')>): Promise<IdentifyLanguage> {
  let eld;
  try {
    ({ eld } = await load());
  } catch (err) {
    if (
      (err as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' &&
      String((err as Error).message).includes("'eld'")
    )
      return NEVER_SURE;
    throw err;
  }
  return (text: string) => {
    const result = eld.detect(text.slice(0, SAMPLE_CHARS));
    return result.language && result.isReliable() ? result.language : null;
  };
}

/** The identifier, loaded once per thread. */
export function loadLanguageIdentifier(): Promise<IdentifyLanguage> {
  // The extra-small n-gram set (1 MB) loads in ~0.5 s against ~0.9 s for the small one and told the same languages
  // apart on the passages and questions tried (fr, pt, it, de, es).
  loading ??= identifierFrom(() => import('eld/extrasmall'));
  return loading;
}
