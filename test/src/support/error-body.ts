import type { RawResponse } from './raw-http.js';

/**
 * What is wrong with an error response, or null when it follows the contract: a JSON body whose only key is
 * `detail`, holding a sentence, a 422 list of `{loc, msg, type}`, or an audio error `{codigo, detalle}`.
 */
export function errorBodyProblem(res: RawResponse): string | null {
  if (res.status < 400) return null;
  if (!String(res.headers['content-type'] ?? '').includes('application/json')) {
    return `error ${res.status} is not JSON (content-type ${String(res.headers['content-type'])}): ${res.text.slice(0, 200)}`;
  }
  const body = res.json;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return `error body is not an object: ${res.text.slice(0, 200)}`;
  const keys = Object.keys(body);
  if (keys.length !== 1 || keys[0] !== 'detail') return `error body keys are ${JSON.stringify(keys)}, not ["detail"]`;
  const detail = (body as { detail: unknown }).detail;
  if (typeof detail === 'string') return detail.length > 0 ? null : 'empty detail';
  if (Array.isArray(detail)) {
    if (res.status !== 422) return `a list detail with status ${res.status} (only 422 carries a list)`;
    const bad = detail.find((d) => !(Array.isArray(d?.loc) && typeof d?.msg === 'string' && typeof d?.type === 'string'));
    return detail.length === 0 ? 'empty validation list' : bad === undefined ? null : `validation item without loc/msg/type: ${JSON.stringify(bad)}`;
  }
  if (typeof detail === 'object' && detail !== null && typeof (detail as { codigo?: unknown }).codigo === 'string') return null;
  return `detail is neither a sentence, a validation list nor {codigo, detalle}: ${res.text.slice(0, 200)}`;
}
