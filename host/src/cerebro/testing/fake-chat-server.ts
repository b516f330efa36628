// A tiny OpenAI-compatible chat-completions server on 127.0.0.1 for tests: it records requests and answers with
// a scripted reply, as JSON or as server-sent events.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  headers: IncomingMessage['headers'];
  body: { model: string; stream?: boolean; messages: { role: string; content: string }[] };
}

export interface ChatServer {
  baseUrl: string;
  requests: RecordedRequest[];
  /** What the next requests answer; may depend on the request. */
  reply: (req: RecordedRequest) => string;
  status: number;
  /** Holds a streamed answer after its first piece until `release()` (to test a client leaving mid-answer). */
  hold: boolean;
  release(): void;
  /** Requests whose client went away before the answer was complete. */
  aborted: number;
  close(): Promise<void>;
}

export async function startChatServer(): Promise<ChatServer> {
  let released: () => void = () => {};
  let gate = Promise.resolve();
  const state: ChatServer = {
    baseUrl: '',
    requests: [],
    reply: () => '',
    status: 200,
    aborted: 0,
    close: async () => {},
    get hold() {
      return held;
    },
    set hold(value: boolean) {
      held = value;
      gate = value
        ? new Promise((r) => {
            released = r;
          })
        : Promise.resolve();
    },
    release: () => released(),
  };
  let held = false;
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      raw += c;
    });
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404).end();
        return;
      }
      const recorded: RecordedRequest = { headers: req.headers, body: JSON.parse(raw) as RecordedRequest['body'] };
      state.requests.push(recorded);
      if (state.status !== 200) {
        res
          .writeHead(state.status, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: 'modelo sobrecargado' } }));
        return;
      }
      const text = state.reply(recorded);
      const usage = { prompt_tokens: 100, completion_tokens: 7, total_tokens: 107 };
      if (!recorded.body.stream) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: 'c1',
            object: 'chat.completion',
            model: recorded.body.model,
            choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
            usage,
          }),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const pieces = text.match(/.{1,7}/gs) ?? [];
      const send = (obj: unknown) => res.write(`data: ${JSON.stringify(obj)}\n\n`);
      res.on('close', () => {
        if (!res.writableFinished) state.aborted++;
      });
      send({ choices: [{ index: 0, delta: { role: 'assistant' } }] });
      send({ choices: [{ index: 0, delta: { content: pieces[0] ?? '' } }] });
      void gate.then(() => {
        if (res.destroyed) return;
        for (const p of pieces.slice(1)) send({ choices: [{ index: 0, delta: { content: p } }] });
        send({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
        send({ choices: [], usage });
        res.end('data: [DONE]\n\n');
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  state.close = () => new Promise((resolve) => server.close(() => resolve()));
  return state;
}
