import { isApiError } from '@cerebro/sdk';
import type { CliIo } from './run-cli.js';

/** `--help` or `-h` anywhere among a command's arguments. */
export const wantsHelp = (args: readonly string[]): boolean => args.includes('--help') || args.includes('-h');

/**
 * Reports a failed command on stderr: `Error: <text>` for a person, or with `--json` the same body an HTTP error
 * has, `{"detail": ...}` (a string, or the validation list), so a script reads one format from both.
 * `describe` turns a validation list into lines for a person.
 */
export function reportError(
  io: CliIo,
  json: boolean,
  err: unknown,
  describe: (detail: unknown) => string = String,
): void {
  const detail = isApiError(err) ? (err as { detail: unknown }).detail : ((err as Error)?.message ?? String(err));
  io.stderr.write(json ? `${JSON.stringify({ detail })}\n` : `Error: ${describe(detail)}\n`);
}

/**
 * A key's `espacios` left empty means every space of its owner; any other empty list (an owner's spaces, the
 * originals a backup misses) means none.
 */
const ALL_SPACES = '(todos los del propietario)';
const isKeyRecord = (record: Record<string, unknown>): boolean => 'permiso' in record && 'espacios' in record;
const emptyList = (record: Record<string, unknown>, field: string): string =>
  field === 'espacios' && isKeyRecord(record) ? ALL_SPACES : '(ninguno)';

const inline = (value: unknown): string =>
  Array.isArray(value)
    ? value.map(inline).join(', ') || '(ninguno)'
    : value && typeof value === 'object'
      ? Object.entries(value)
          .map(([k, v]) =>
            Array.isArray(v) && v.length === 0
              ? `${k}=${emptyList(value as Record<string, unknown>, k)}`
              : `${k}=${inline(v)}`,
          )
          .join(' ')
      : String(value);

/** A result for a terminal: `field: value` lines; a list of records (a page) one record per line. */
export function formatHuman(value: unknown): string {
  if (!value || typeof value !== 'object') return String(value);
  const record = value as Record<string, unknown>;
  return Object.entries(record)
    .map(([k, v]) => {
      if (Array.isArray(v) && v.some((item) => item && typeof item === 'object')) {
        return `${k}:${v.map((item) => `\n  - ${inline(item)}`).join('') || ' (ninguno)'}`;
      }
      return `${k}: ${Array.isArray(v) ? v.join(', ') || emptyList(record, k) : inline(v)}`;
    })
    .join('\n');
}
