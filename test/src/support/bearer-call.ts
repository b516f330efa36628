import type { ServerProcess } from './server-process.js';

/** A server's answer: its status, headers and JSON body (null when the body is not JSON). */
export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

/** Calls `/api<path>` under `root` (a server, or the balancer in front of several) with a bearer credential. */
export async function callAt(root: string, key: string, path: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(`${root}/api${path}`, {
    ...init,
    headers: { authorization: `Bearer ${key}`, ...init.headers },
  });
  return { status: res.status, headers: res.headers, body: await res.json().catch(() => null) };
}

/** Calls `/api<path>` of a server process with a bearer credential. */
export function call(server: ServerProcess, key: string, path: string, init: RequestInit = {}): Promise<Answer> {
  return callAt(server.url, key, path, init);
}

/** A request with a JSON body. */
export const json = (method: string, body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});
