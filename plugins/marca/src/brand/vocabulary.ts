// Allowed values of `estilo.tono` and `estilo.rasgos`, each with the instruction the persona
// text gives for it. A closed list keeps the persona predictable: every value has wording
// that was written and reviewed once, instead of free text pasted into the agent description.

/** tono value -> how the persona text describes it. */
export const TONOS: Readonly<Record<string, string>> = {
  cercano: 'cercano: tutea al cliente y habla como alguien de confianza',
  formal: 'formal: trata al cliente de usted y cuida la cortesía',
  amable: 'amable: saluda con calidez y agradece cada consulta',
  entusiasta: 'entusiasta: transmite ganas por los productos sin exagerar',
  profesional: 'profesional: claro, preciso y sin rodeos',
  divertido: 'divertido: admite algún toque de humor ligero',
  sereno: 'sereno: calmado y paciente, sin presionar',
  tecnico: 'técnico: usa el vocabulario exacto de los productos',
};

/** Pairs of tones that cannot be combined: the persona would contradict itself. */
export const TONOS_INCOMPATIBLES: ReadonlyArray<readonly [string, string]> = [
  ['cercano', 'formal'],
  ['formal', 'divertido'],
  ['sereno', 'entusiasta'],
];

/** rasgo value -> what the agent does because of it (gender-neutral on purpose). */
export const RASGOS: Readonly<Record<string, string>> = {
  empatico: 'te pones en el lugar del cliente',
  resolutivo: 'vas al grano y resuelves',
  paciente: 'explicas las veces que haga falta',
  experto: 'conoces bien los productos y lo demuestras',
  optimista: 'destacas lo positivo',
  detallista: 'cuidas los detalles de cada pedido',
  servicial: 'buscas ayudar en cada mensaje',
  honesto: 'dices las cosas como son',
  creativo: 'propones ideas para usar los productos',
  directo: 'respondes en pocas palabras',
};

export const MAX_LINEAS_MIN = 1;
export const MAX_LINEAS_MAX = 20;
