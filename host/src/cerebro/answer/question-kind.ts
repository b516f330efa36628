// What kind of answer a question asks for, in Spanish or English, so the composer can prefer the unit that answers
// it: a command or steps for a how-to, a defining sentence, a number, a path or setting, a list of options.
export type QuestionKind = 'procedure' | 'definition' | 'quantity' | 'location' | 'yes-no' | 'list' | 'other';

const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();

// Checked in this order: the first that matches wins ("¿qué orden muestra…?" is a procedure, not a definition).
const RULES: [QuestionKind, RegExp][] = [
  // "¿Cómo accedo a X?", "¿En qué dirección abro X?" ask where X is: an address, a path, a URL.
  [
    'location',
    /\b(donde|adonde|en que (archivo|fichero|directorio|carpeta|ruta|menu|seccion|pantalla|direccion|url)|que (archivo|fichero|directorio|ruta|direccion|url)|como (accedo|accede|se accede|entro|se entra|llego|encuentro)( a| al| en| mi| desde)?\b|where|which (file|directory|folder|path|menu|setting|address|url))\b/,
  ],
  [
    'procedure',
    /\b(como|de que (forma|manera|modo)|que (orden|comando|instruccion|pasos)|cual es la orden|con que (orden|comando)|how (do|can|to|should|would|does)|what command|which command|steps? to)\b/,
  ],
  [
    'quantity',
    /\b(cuant[oa]s?|que (tamanos?|precios?|version(es)?|puertos?|numeros?|cantidad(es)?|edad(es)?|horas?|fechas?)|how (many|much|long|big|old)|what (sizes?|prices?|versions?|ports?|numbers?))\b/,
  ],
  // "¿Qué necesito para X?" asks for the requirements: a list.
  [
    'list',
    /\b(cuales son|que (necesito|necesitas|hace falta|se necesita) para|what do (i|you) need|que (tipos|clases|opciones|formas|maneras|paquetes|herramientas|programas|aplicaciones)|enumer\w*|lista\w*|which (are|tools|options|types|packages)|what (are the|tools|options|types|kinds)|list)\b/,
  ],
  [
    'definition',
    /^\W*(que (es|son|significa|quiere decir)|para que sirven?|what (is|are|does \S+ mean)|what is \S+ for|define|definicion de)\b/,
  ],
  [
    'yes-no',
    /^\W*(puedo|puede|pueden|se puede|es|son|esta|estan|hay|existe|tiene|debo|debe|hace falta|necesito|can|could|is|are|does|do|should|must|will)\b/,
  ],
];

/**
 * "¿Qué programas…?", "¿Qué servidores…?": a plural noun after "qué"/"which" asks for several things. The second
 * person verbs that may follow "qué" are not nouns.
 */
const PLURAL_ASKED = /^\W*(que|cuales|which|what)\s+(\p{L}{3,}s)\b/u;
const NOT_PLURAL_NOUNS = new Set(
  'has haces tienes puedes debes ves sabes necesitas quieres usas dices pones opinas crees does was has'.split(' '),
);

/** An interrogative word anywhere: without one, a question asks whether something is so. */
const INTERROGATIVE =
  /\b(que|cual|cuales|quien|quienes|como|donde|adonde|cuando|cuanto|cuanta|cuantos|cuantas|what|which|who|whom|whose|how|where|when|why)\b/;

export function questionKind(question: string): QuestionKind {
  const q = fold(question).replace(/[¿¡]/g, ' ');
  for (const [kind, re] of RULES) {
    if (re.test(q)) return kind;
    // Plural "which X" questions come after the quantity rule ("¿Qué puertos…?" asks for numbers).
    if (kind === 'quantity') {
      const plural = PLURAL_ASKED.exec(q)?.[2];
      if (plural && !NOT_PLURAL_NOUNS.has(plural)) return 'list';
    }
  }
  // "¿Las instantáneas funcionan con cualquier sistema de archivos?": a question with no interrogative word.
  if (/\?\s*$/.test(q) && !INTERROGATIVE.test(q)) return 'yes-no';
  return 'other';
}

/** A second question joined to the first by "y" ("¿Qué demonio recoge los logs y cuál es su fichero…?"). */
const SECOND_QUESTION =
  /\b(y|and)\s+(en |de |con |a )?(que|cual|cuales|donde|adonde|cuando|cuanto|cuanta|cuantos|cuantas|como|quien|quienes|what|which|where|when|how|who)\b/;

/** Whether a question asks two things at once, joined by "y": its answer may need two sentences that follow. */
export function asksTwoThings(question: string): boolean {
  return SECOND_QUESTION.test(fold(question).replace(/[¿¡]/g, ' '));
}
