import { ERROR_CATALOGUE, type ErrorCode } from '@cerebro/sdk';
import type { RawResponse } from './raw-http.js';

/**
 * What is wrong with an error response, or null when it follows the contract: `X-Content-Type-Options: nosniff`,
 * a JSON body whose keys are `detail` and `codigo`, `codigo` a key of the error catalogue whose status is the
 * response's, and `detail` a sentence, a 422 list of `{loc, msg, type}`, or an audio error `{codigo, detalle}`
 * whose `codigo` is the top-level one. On routes of the OpenAI dialect (`openAi`) a third key, `error`, is OpenAI's
 * `{message, type, code, param}` of the same error, except on what Node refuses before any route is known.
 */
export function errorBodyProblem(res: RawResponse, openAi = false): string | null {
  if (res.status < 400) return null;
  if (!String(res.headers['content-type'] ?? '').includes('application/json')) {
    return `error ${res.status} is not JSON (content-type ${String(res.headers['content-type'])}): ${res.text.slice(0, 200)}`;
  }
  const body = res.json;
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return `error body is not an object: ${res.text.slice(0, 200)}`;
  const keys = Object.keys(body);
  // What Node refuses before any route is known (main/client-errors.ts) cannot speak a route's dialect.
  const beforeRouting = ['headers_too_large', 'request_timeout', 'bad_request'].includes(
    String((body as { codigo?: unknown }).codigo),
  );
  if (openAi && beforeRouting && keys.length === 2) openAi = false;
  const expected = openAi ? ['detail', 'codigo', 'error'] : ['detail', 'codigo'];
  if (keys.join() !== expected.join())
    return `error body keys are ${JSON.stringify(keys)}, not ${JSON.stringify(expected)}`;
  if (openAi) {
    const { error, codigo } = body as { error: Record<string, unknown>; codigo: unknown };
    if (
      typeof error?.message !== 'string' ||
      error.message === '' ||
      typeof error.type !== 'string' ||
      error.code !== codigo ||
      !('param' in error)
    )
      return `error is not OpenAI's {message, type, code, param} of codigo ${String(codigo)}: ${JSON.stringify(error)}`;
  }
  if (res.headers['x-content-type-options'] !== 'nosniff')
    return `error ${res.status} without X-Content-Type-Options: nosniff`;
  const { detail, codigo } = body as { detail: unknown; codigo: unknown };
  if (typeof codigo !== 'string' || !Object.hasOwn(ERROR_CATALOGUE, codigo))
    return `codigo ${JSON.stringify(codigo)} is not in the catalogue`;
  if (ERROR_CATALOGUE[codigo as ErrorCode].status !== res.status)
    return `codigo ${codigo} is a ${ERROR_CATALOGUE[codigo as ErrorCode].status} in the catalogue, answered ${res.status}`;
  if (typeof detail === 'string') return detail.length > 0 ? null : 'empty detail';
  if (Array.isArray(detail)) {
    if (res.status !== 422) return `a list detail with status ${res.status} (only 422 carries a list)`;
    const bad = detail.find(
      (d) => !(Array.isArray(d?.loc) && typeof d?.msg === 'string' && typeof d?.type === 'string'),
    );
    return detail.length === 0
      ? 'empty validation list'
      : bad === undefined
        ? null
        : `validation item without loc/msg/type: ${JSON.stringify(bad)}`;
  }
  if (typeof detail === 'object' && detail !== null && typeof (detail as { codigo?: unknown }).codigo === 'string') {
    return (detail as { codigo: string }).codigo === codigo
      ? null
      : `detail.codigo ${(detail as { codigo: string }).codigo} differs from codigo ${codigo}`;
  }
  return `detail is neither a sentence, a validation list nor {codigo, detalle}: ${res.text.slice(0, 200)}`;
}
