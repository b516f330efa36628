// The kind of value a question asks for, and whether a piece of text holds one: a number (with its unit) for
// "¿cuánto…?", a time or a date for "¿cuándo…?", a place or a path for "¿dónde…?", a command for "¿cómo…?", a reason
// for "¿por qué…?". A passage that shares the question's words but holds no value of the asked kind echoes the
// question without answering it; the decision model and the sentence picker both read this.
import { foldAccents } from '../text/analyzer.js';
import type { QuestionKind } from './question-kind.js';

export type AnswerType = 'number' | 'time' | 'place' | 'command' | 'reason' | 'option';

const fold = (s: string) => foldAccents(s.toLowerCase()).replace(/[¿¡]/g, ' ');

/** "¿cuándo…?", "¿a qué hora…?", "¿qué día…?", "¿en qué horario…?", "¿qué plazo…?": a time or a date. */
const ASKS_TIME =
  /\b(cuanto (tiempo|tarda\w*|demora\w*|dura\w*)|a que hora|que hora|que dias?|que fecha|en que (mes|ano|momento|horario)|hasta que (hora|dia|fecha)|horarios?|plazo|when|what time|what day)\b/;
/**
 * "¿Cuándo…?" asks for a time where it is the question word: written with its accent, or opening a question. Unaccented
 * inside a question it is mostly the conjunction ("¿Cómo marco un paquete para que se borre cuando no haga falta?").
 */
const ASKS_WHEN = /cuándo|(^|¿)\s*((desde|hasta|para|de) )?cuando\b/;
/** "¿Con qué opción…?", "¿Qué tecla…?", "¿Qué parámetro…?": the name of an option, a switch or a key. */
const ASKS_OPTION =
  /\b(que|cual|cuales|con que|which|what) (opcion|opciones|parametro|parametros|argumento|argumentos|modificador|flag|tecla|teclas|atajo|atajos|combinacion de teclas|switch|option|options|key|keys|shortcut)\b/;
const ASKS_REASON = /\b(por que|porque|para que|why|motivo|razon)\b/;
/**
 * "¿Cobráis por montar…?", "¿Cuesta algo el envío?", "do you charge…?": a yes/no question about a charge is answered by
 * the amount (or by its being free), as "¿cuánto cobráis…?" is.
 */
const ASKS_CHARGE = /\b(cobr\w+|cuesta|cuestan|costar|charge|charges)\b/;

/** The value a question asks for, or null when it asks for no particular kind (a definition, a yes/no…). */
export function askedType(question: string, kind: QuestionKind): AnswerType | null {
  const q = fold(question);
  if (ASKS_TIME.test(q) || ASKS_WHEN.test(question.toLowerCase())) return 'time';
  if (ASKS_OPTION.test(q)) return 'option';
  if (kind === 'quantity') return 'number';
  if (kind === 'location') return 'place';
  if (kind === 'procedure') return 'command';
  if (ASKS_REASON.test(q)) return 'reason';
  if (kind === 'yes-no' && ASKS_CHARGE.test(q)) return 'number';
  return null;
}

/** Digits, or a number in words ("treinta días", "dos años", "la mitad"): scanned and plain prose spell them out. */
const NUMBER =
  /\d|\b(dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|once|doce|quince|veinte|treinta|cuarenta|cincuenta|sesenta|cien|ciento|doscientos|quinientos|mil|millon(es)?|medio|media|mitad|doble|triple|docena|gratis|gratuit[oa]s?|one|two|three|four|five|ten|twenty|hundred|thousand|half|free)\b/;
const TIME =
  /\b\d{1,2}(:\d{2}| ?h\b| ?(am|pm)\b)|\b(lunes|martes|miercoles|jueves|viernes|sabados?|domingos?|festivos?|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre|dias?|semanas?|meses|mes|anos?|horas?|minutos?|inmediat\w*|antes|despues|durante|hasta|desde|cada|monday|tuesday|wednesday|thursday|friday|saturday|sunday|days?|weeks?|months?|years?|hours?|before|after|until|every)\b/;
/** A path, a URL, a Windows share, a host name, a file name, or the words that name a place in prose. */
const PLACE =
  /(^|[\s«"'`(])(\/[\w.@-]+)+\/?|\b[a-z]:\\|\\\\[\w.-]+|\b[a-z][\w+.-]*:\/\/\S+|\b[\w-]+\.(local|conf|cfg|ini|list|json|ya?ml|toml|txt|sh|log)\b|\b(calle|avenida|avda|plaza|paseo|carretera|poligono|local|planta|piso|oficina|tienda|almacen|sede|exposicion|ciudad|provincia|zona|pais|menu|pestana|seccion|apartado|panel|boton|en la parte|puerta|entrada|salida|edificio|junto a|al lado|frente a|enfrente|detras|delante|encima|debajo|dentro|fuera|norte|sur|este|oeste|izquierda|derecha|street|menu|tab|section|folder|directory|directorio|carpeta|archivo|fichero)\b/;
const COMMAND =
  /`[^`]+`|^\s*[$#] |\b(apt|apt-get|dpkg|systemctl|sudo|ejecut\w+|escrib\w+|puls\w+|pincha\w*|haz clic|clic|selecciona|elige|entra en|ve a|accede|run|type|press|click|select)\b/m;
/** A command-line switch ("-i", "--purge"), a setting ("APT::Default-Release") or a key ("Ctrl+C", "F2", "Intro"). */
const OPTION =
  /(^|[\s`(«"'[])--?[a-z][\w-]*|\b\w+::\w+|\b(ctrl|control|alt|shift|mayus\w*|intro|enter|esc|escape|tab|tabulador|supr|retroceso|f\d{1,2})\b/;
const REASON =
  /\b(porque|ya que|debido a|puesto que|para que|para evitar|asi|por eso|por ello|de modo que|de forma que|because|since|so that|due to|in order to)\b/;

/** Whether `text` holds a value of the asked kind. */
export function holdsType(text: string, type: AnswerType): boolean {
  const t = fold(text);
  switch (type) {
    case 'number':
      return NUMBER.test(t);
    case 'time':
      return TIME.test(t);
    case 'place':
      return PLACE.test(t);
    case 'command':
      return COMMAND.test(text);
    case 'reason':
      return REASON.test(t);
    case 'option':
      return OPTION.test(t);
  }
}

/**
 * Words that name the kind of value asked for rather than the topic ("¿Qué días abre…?", "¿A qué hora…?", "¿Qué
 * precio tiene…?"): a passage holding a value of that kind answers them without repeating the word.
 */
export const TYPE_WORDS: Readonly<Record<AnswerType, readonly string[]>> = {
  time: [
    'dia',
    'dias',
    'hora',
    'horas',
    'horario',
    'horarios',
    'fecha',
    'fechas',
    'plazo',
    'plazos',
    'tiempo',
    'momento',
    // "¿Cuánto tardan…?", "¿Cuánto dura…?": verbs that ask for a span of time.
    'tarda',
    'tardan',
    'tardar',
    'demora',
    'demoran',
    'demorar',
    'dura',
    'duran',
    'durar',
    'day',
    'days',
    'time',
    'hours',
    'date',
  ],
  number: [
    'precio',
    'precios',
    'coste',
    'costo',
    'cantidad',
    'numero',
    'importe',
    'tarifa',
    'valor',
    // "¿Cuánto cuesta / vale / sale / me cobráis…?": verbs that ask for a price.
    'cuesta',
    'cuestan',
    'costar',
    'vale',
    'valen',
    'valer',
    'sale',
    'salen',
    'cobra',
    'cobran',
    'cobrar',
    'price',
    'cost',
    'amount',
    'number',
  ],
  place: ['sitio', 'lugar', 'ubicacion', 'direccion', 'place', 'location', 'address'],
  command: ['orden', 'comando', 'instruccion', 'command'],
  reason: ['motivo', 'razon', 'causa', 'reason', 'cause'],
  option: [
    'opcion',
    'opciones',
    'parametro',
    'parametros',
    'argumento',
    'argumentos',
    'modificador',
    'tecla',
    'teclas',
    'atajo',
    'atajos',
    'option',
    'options',
    'flag',
    'key',
    'shortcut',
  ],
};

/** "¿A qué hora…?", "¿Qué horario…?": a time of day or a range of them, not a span ("48 horas") nor a weekday. */
const ASKS_CLOCK = /\b(a que hora|que hora|hasta que hora|desde que hora|horarios?|what time|opening hours)\b/;
const CLOCK =
  /\b\d{1,2}([:.]\d{2}\b| ?h\b| ?hrs?\b| ?(am|pm)\b)|\b(mediodia|medianoche|cerrado|cerramos|noon|midnight|closed)\b/;
/** "¿Cuánto tarda…?", "¿Qué plazo…?", "how long": a span, a number with its unit of time ("4 a 6 semanas"). */
const ASKS_SPAN = /\b(cuanto (tiempo|tarda\w*|demora\w*|dura\w*)|plazos?|how long)\b/;
const SPAN =
  /\b(\d+([.,]\d+)?|un|una|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|once|doce|quince|veinte|treinta|cuarenta|sesenta|noventa|cien)((\s*(a|y|o|-|–)\s*|\s+)\d+)?\s*(horas?|h|dias?|semanas?|meses|mes|anos?|minutos?|min|hours?|days?|weeks?|months?|years?|minutes?)\b/;
/** "¿Cuánto cuesta…?", "¿Qué precio…?", "¿Cobráis…?": an amount of money (or that it is free). */
const ASKS_PRICE =
  /\b(cuesta\w*|cuestan|costar|vale|valen|precios?|coste|costo|cobr\w+|pag\w+|importe|tarifas?|a cuanto|sale|salen|price|cost|costs|charge)\b/;
const PRICE =
  /[€$£]|\b\d+([.,]\d+)?\s*%|\b(euros?|eur|usd|mxn|clp|ars|cop|pen|pesos?|dolares?|gratis|gratuit[oa]s?|sin coste|sin costo|sin cargo|free)\b/;

/**
 * "¿En qué archivo…?", "¿Dónde se configura / se guarda…?": a path or a file name, not a place in prose nor a
 * cross-reference ("véase la sección 6.2").
 */
const ASKS_FILE =
  /\b((en )?(que|cual es el|cual es la) (archivo|fichero|directorio|carpeta|ruta)|donde se (guarda\w*|configura\w*|almacena\w*|registra\w*|define\w*|declara\w*)|which (file|directory|folder|path))\b/;
const FILE_PATH =
  /(^|[\s«"'`(])~?(\/[\w.@-]+)+\/?|\b[a-z]:\\|\b[\w-]+\.(conf|cfg|ini|list|json|ya?ml|toml|txt|sh|log|d|service|rules|pref)\b/;

/**
 * Whether a text holds the value a question asks for, as precisely as the question says it: a time of day for "¿a
 * qué hora…?" (not "48 horas"), a span for "¿cuánto tarda…?" (not "el lunes"), an amount of money for "¿cuánto
 * cuesta…?" (not any number); otherwise any value of its kind (`holdsType`). Null when no kind is asked.
 */
export function askedValueTest(question: string, type: AnswerType | null): ((text: string) => boolean) | null {
  if (type === null) return null;
  const q = fold(question);
  const narrow =
    type === 'time' && ASKS_CLOCK.test(q)
      ? CLOCK
      : type === 'time' && ASKS_SPAN.test(q)
        ? SPAN
        : type === 'number' && ASKS_PRICE.test(q)
          ? PRICE
          : type === 'place' && ASKS_FILE.test(q)
            ? FILE_PATH
            : null;
  if (narrow === null) return (text) => holdsType(text, type);
  return (text) => narrow.test(fold(text));
}
