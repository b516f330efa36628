// Tone in the agent's own templates (rule 3). With the brand tone `formal` the customer is
// addressed as "usted". The templates are ours, so an exact table of their second-person
// fragments is enough; text from the documents or an external model is not touched.

const USTED: readonly [string, string][] = [
  ['¿En qué te puedo ayudar?', '¿En qué le puedo ayudar?'],
  ['¿En qué te ayudo?', '¿En qué le ayudo?'],
  ['¿Te ayudo', '¿Le ayudo'],
  ['te comunico', 'le comunico'],
  ['Te escribirá', 'Le escribirá'],
  ['¿Cuál te interesa?', '¿Cuál le interesa?'],
  ['¿Qué producto te interesa?', '¿Qué producto le interesa?'],
  ['quieres', 'desea'],
  ['Tu cotización', 'Su cotización'],
  ['tu cotización', 'su cotización'],
  ['cuando me digas tu ciudad', 'cuando me indique su ciudad'],
  ['como tu ciudad', 'como su ciudad'],
  ['ya tienes', 'ya tiene'],
  ['Que tengas', 'Que tenga'],
];

export function toUsted(text: string): string {
  return USTED.reduce((acc, [tu, usted]) => acc.split(tu).join(usted), text);
}
