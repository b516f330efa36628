// Function words dropped from both indexed text and questions. Kept deliberately short: only words that carry no
// topic (articles, prepositions, pronouns, auxiliaries, question words), so content words are never lost.
// Stored folded (no accents, lower case) because they are compared after folding.
const SPANISH = `a al algo alguien algun alguna algunas alguno algunos ante antes aqui asi aun cada como con contra cual
cuales cualquier cuando cuanto de del desde donde dos el ella ellas ello ellos en entre era eran es esa esas ese eso
esos esta estaba estan estar estas este esto estos fue fueron ha haber habia han hasta hay la las le les lo los mas me
mi mis muy nada ni no nos nosotros o os otra otras otro otros para pero poco por porque pues que quien quienes se sea
segun ser si sido sin sobre son su sus tal tambien te tiene tienen toda todas todo todos tu tus un una unas uno unos
usted vosotros y ya yo cual cuales puedo puede pueden debo debe hacer hace como dice`;

const ENGLISH = `a about an and are as at be been being but by can could did do does doing for from had has have how i
if in into is it its me my no not of on or our so such than that the their them then there these they this those to
was we were what when where which who whom why will with would you your`;

const toSet = (s: string): ReadonlySet<string> => new Set(s.split(/\s+/).filter(Boolean));

export const STOPWORDS_ES = toSet(SPANISH);
export const STOPWORDS_EN = toSet(ENGLISH);
