// What kind of answer a question asks for, in Spanish or English, so the composer can prefer the unit that answers
// it: a command or steps for a how-to, a defining sentence, a number, a path or setting, a list of options.
export type QuestionKind = 'procedure' | 'definition' | 'quantity' | 'location' | 'yes-no' | 'list' | 'other';

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();

// Checked in this order: the first that matches wins ("¿qué orden muestra…?" is a procedure, not a definition).
const RULES: [QuestionKind, RegExp][] = [
  ['location', /\b(donde|adonde|en que (archivo|fichero|directorio|carpeta|ruta|menu|seccion|pantalla)|que (archivo|fichero|directorio|ruta)|where|which (file|directory|folder|path|menu|setting))\b/],
  ['procedure', /\b(como|de que (forma|manera|modo)|que (orden|comando|instruccion|pasos)|cual es la orden|con que (orden|comando)|how (do|can|to|should|would|does)|what command|which command|steps? to)\b/],
  ['quantity', /\b(cuant[oa]s?|que (tamanos?|precios?|version(es)?|puertos?|numeros?|cantidad(es)?|edad(es)?|horas?|fechas?)|how (many|much|long|big|old)|what (sizes?|prices?|versions?|ports?|numbers?))\b/],
  ['list', /\b(cuales son|que (tipos|clases|opciones|formas|maneras|paquetes|herramientas|programas|aplicaciones)|enumer\w*|lista\w*|which (are|tools|options|types|packages)|what (are the|tools|options|types|kinds)|list)\b/],
  ['definition', /^\W*(que (es|son|significa|quiere decir)|para que sirven?|what (is|are|does \S+ mean)|what is \S+ for|define|definicion de)\b/],
  ['yes-no', /^\W*(puedo|puede|pueden|se puede|es|son|esta|estan|hay|existe|tiene|debo|debe|hace falta|necesito|can|could|is|are|does|do|should|must|will)\b/],
];

export function questionKind(question: string): QuestionKind {
  const q = fold(question).replace(/[¿¡]/g, ' ');
  for (const [kind, re] of RULES) if (re.test(q)) return kind;
  return 'other';
}
