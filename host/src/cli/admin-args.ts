import { parseArgs } from 'node:util';

type Options = Record<string, { type: 'string' | 'boolean'; short?: string }>;

/**
 * `--amount -999` as `--amount=-999`: a negative number after an option that takes a value is that value (credits
 * removed, README), which node's parseArgs refuses as ambiguous unless written with `=`.
 */
function withNegativeValues(args: readonly string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const next = args[i + 1];
    const name = arg.startsWith('--') ? arg.slice(2) : null;
    if (name && options[name]?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** node's parseArgs errors (English) said in Spanish, naming the option as typed. */
function inSpanish(err: unknown): Error {
  const { code, message } = err as { code?: string; message: string };
  const option = /'(-[^' ]+)/.exec(message)?.[1] ?? '';
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return new Error(`Opción desconocida: ${option}.`);
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return new Error(
        /does not take an argument/.test(message)
          ? `La opción ${option} no lleva valor.`
          : `Falta el valor de la opción ${option} (uno que empiece por un guion se escribe ${option}=-valor).`,
      );
    default:
      return err instanceof Error ? err : new Error(message);
  }
}

/** The admin command line parsed strictly, negatives accepted as values, errors in Spanish. */
export function parseAdminArgs(args: readonly string[], options: Options) {
  try {
    return parseArgs({ args: withNegativeValues(args, options), options, allowPositionals: true, strict: true });
  } catch (err) {
    throw inSpanish(err);
  }
}
