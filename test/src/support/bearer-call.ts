import type { ServerProcess } from './server-process.js';

/** A server's answer: its status, headers and JSON body (null when the body is not JSON). */
export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

/** Calls `/api<path>` of a server process with a bearer credential. */
export async function call(server: ServerProcess, key: string, path: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(`${server.url}/api${path}`, {
    ...init,
    headers: { authorization: `Bearer ${key}`, ...init.headers },
  });
  return { status: res.status, headers: res.headers, body: await res.json().catch(() => null) };
}
