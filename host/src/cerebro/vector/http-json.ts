// One JSON POST to a model server (embeddings, rerank), with a time limit and the key only in the Authorization
// header. Errors are `ModelEndpointError` with a Spanish message that never quotes the key or the texts sent.

export class ModelEndpointError extends Error {
  override readonly name = 'ModelEndpointError';
}

export interface EndpointConfig {
  /** Base URL up to the version segment, e.g. http://127.0.0.1:8080/v1 (the path is appended). */
  baseUrl: string;
  apiKey?: string;
  timeoutMs: number;
}

export async function postJson(
  config: EndpointConfig,
  path: string,
  body: object,
  signal?: AbortSignal,
): Promise<unknown> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
  const timeout = AbortSignal.timeout(config.timeoutMs);
  const url = `${config.baseUrl.replace(/\/+$/, '')}${path}`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new ModelEndpointError(
      `${url} no responde (${(err as Error).name === 'TimeoutError' ? 'tiempo agotado' : 'sin conexión'})`,
    );
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new ModelEndpointError(`${url} respondió ${res.status}`);
  }
  try {
    return await res.json();
  } catch {
    throw new ModelEndpointError(`${url} no respondió JSON`);
  }
}
