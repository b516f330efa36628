// A tiny model server on 127.0.0.1 for tests, speaking the OpenAI-compatible `/v1/embeddings` and the `/v1/rerank`
// shapes (Jina/Cohere/llama.cpp `results`, or Hugging Face TEI's bare list). Its "model" is a word table: a text's
// vector is the sum of its words' rows; a passage's rerank score, like a cross-encoder's relevance probability, is
// the share (0–1) of the question's words it holds, itself or as a synonym (a word with the same row).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ModelServer {
  baseUrl: string;
  /** Bodies received, by path. */
  requests: { path: string; body: Record<string, unknown> }[];
  /** Answer status for every request (200: work normally). */
  status: number;
  /** Milliseconds to wait before answering (to exercise time limits). */
  delayMs: number;
  rerankShape: 'results' | 'tei';
  close(): Promise<void>;
}

const wordsOf = (text: string): string[] =>
  text
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .match(/\p{L}+/gu) ?? [];

export async function startModelServer(table: Record<string, number[]>, dimensions: number): Promise<ModelServer> {
  const vectorOf = (text: string): number[] => {
    const v = new Array<number>(dimensions).fill(0);
    for (const w of wordsOf(text))
      table[w]?.forEach((x, i) => {
        v[i]! += x;
      });
    v[dimensions - 1]! += 1e-3; // never the zero vector
    return v;
  };
  const timers = new Set<NodeJS.Timeout>();
  const state: ModelServer = {
    baseUrl: '',
    requests: [],
    status: 200,
    delayMs: 0,
    rerankShape: 'results',
    close: async () => {},
  };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      raw += c;
    });
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as Record<string, unknown>;
      state.requests.push({ path: req.url ?? '', body });
      const answer = (status: number, payload: unknown) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!res.destroyed)
            res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
        }, state.delayMs);
        timers.add(timer);
      };
      if (state.status !== 200) return answer(state.status, { error: { message: 'modelo no cargado' } });
      if (req.url === '/v1/embeddings') {
        const input = body.input as string[];
        // Listed in reverse to check that clients order by `index`.
        return answer(200, {
          object: 'list',
          data: input.map((t, index) => ({ object: 'embedding', index, embedding: vectorOf(t) })).reverse(),
        });
      }
      if (req.url === '/v1/rerank') {
        const query = wordsOf(String(body.query));
        const sameMeaning = (a: string, b: string) =>
          a === b || (table[a] !== undefined && String(table[a]) === String(table[b]));
        const scored = (body.documents as string[]).map((d, index) => {
          const held = wordsOf(d);
          return {
            index,
            score: query.filter((q) => held.some((w) => sameMeaning(q, w))).length / Math.max(1, query.length),
          };
        });
        return answer(
          200,
          state.rerankShape === 'tei'
            ? scored.map(({ index, score }) => ({ index, score }))
            : {
                results: scored
                  .sort((a, b) => b.score - a.score)
                  .map(({ index, score }) => ({ index, relevance_score: score })),
              },
        );
      }
      answer(404, { error: { message: 'no existe' } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  state.close = () =>
    new Promise((resolve) => {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
