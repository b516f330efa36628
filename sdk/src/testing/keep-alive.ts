import { Agent, request, type ClientRequest } from 'node:http';

/** One answer read over a keep-alive connection, with whether it travelled on a socket an earlier request used. */
export interface KeepAliveResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** True when this request reused the connection of an earlier one. */
  reusedSocket: boolean;
}

/**
 * A client that keeps one connection open between requests, as browsers and HTTP libraries do, to test that an
 * answer sent before the request body was read leaves the connection usable (or says `Connection: close`).
 * `fetch` hides which socket a request used; node:http's agent tells it.
 */
export class KeepAliveClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });

  constructor(
    readonly baseUrl: string,
    readonly key: string | null,
  ) {}

  request(
    method: string,
    path: string,
    options: { body?: Buffer; headers?: Record<string, string> } = {},
  ): Promise<KeepAliveResponse> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.body) headers['content-length'] = String(options.body.length);
    return this.send(method, path, headers, (req) => req.end(options.body));
  }

  /**
   * Sends the headers only (they may declare a body) and reads the answer the server gives before any body byte;
   * the connection is then dropped, as a client that gives up on its upload does.
   */
  async requestHeadersOnly(method: string, path: string, headers: Record<string, string>): Promise<KeepAliveResponse> {
    let sent: ClientRequest | undefined;
    const answer = await this.send(method, path, headers, (req) => {
      sent = req;
      req.flushHeaders();
    });
    sent?.destroy();
    return answer;
  }

  private send(
    method: string,
    path: string,
    headers: Record<string, string>,
    start: (req: ClientRequest) => void,
  ): Promise<KeepAliveResponse> {
    if (this.key) headers.authorization = `Bearer ${this.key}`;
    return new Promise((resolve, reject) => {
      const req = request(`${this.baseUrl}${path}`, { method, headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
            reusedSocket: req.reusedSocket,
          }),
        );
        res.on('error', reject);
      });
      req.on('error', reject);
      start(req);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** A FormData serialised as multipart bytes with its Content-Type (boundary included). */
export async function multipartBytes(form: FormData): Promise<{ body: Buffer; contentType: string }> {
  const encoded = new Response(form);
  return { body: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type')! };
}
