// A minimal client for OpenAI-compatible chat completions (OpenAI, llama.cpp server, Ollama, vLLM), on fetch.
// Streaming reads server-sent events and yields text deltas; usage comes from the final chunk when the server
// sends it. The API key is only ever placed in the Authorization header, never in errors or logs.

export interface ChatClientConfig {
  /** Base URL up to and including the version segment, e.g. http://127.0.0.1:8080/v1 */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Whole-request time limit. */
  timeoutMs?: number;
  temperature?: number;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatUsage {
  promptTokens: number;
  completionTokens: number;
}

export type ChatChunk = { type: 'delta'; text: string } | { type: 'usage'; usage: ChatUsage };

export class ChatClientError extends Error {
  override readonly name = 'ChatClientError';
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
  }
}

interface CompletionBody {
  choices?: { message?: { content?: string | null }; delta?: { content?: string | null } }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  error?: { message?: string };
}

const usageOf = (u: CompletionBody['usage']): ChatUsage | null =>
  u ? { promptTokens: u.prompt_tokens ?? 0, completionTokens: u.completion_tokens ?? 0 } : null;

export class OpenAiChatClient {
  constructor(private readonly config: ChatClientConfig) {}

  get model(): string {
    return this.config.model;
  }

  private async post(body: object, signal?: AbortSignal): Promise<Response> {
    const timeout = AbortSignal.timeout(this.config.timeoutMs ?? 120_000);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    if (this.config.apiKey) headers.authorization = `Bearer ${this.config.apiKey}`;
    let res: Response;
    try {
      res = await fetch(`${this.config.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (err) {
      if (signal?.aborted) throw err;
      throw new ChatClientError(
        `el modelo de chat no responde (${(err as Error).name === 'TimeoutError' ? 'tiempo agotado' : 'sin conexión'})`,
        null,
      );
    }
    if (!res.ok) {
      let detail = '';
      try {
        detail = ((await res.json()) as CompletionBody).error?.message ?? '';
      } catch {
        /* not JSON */
      }
      throw new ChatClientError(
        `el modelo de chat respondió ${res.status}${detail ? `: ${detail.slice(0, 200)}` : ''}`,
        res.status,
      );
    }
    return res;
  }

  private request(messages: ChatMessage[], maxTokens: number | undefined, stream: boolean): object {
    return {
      model: this.config.model,
      messages,
      stream,
      temperature: this.config.temperature ?? 0.1,
      ...(maxTokens ? { max_tokens: maxTokens } : {}),
      ...(stream ? { stream_options: { include_usage: true } } : {}),
    };
  }

  async complete(
    messages: ChatMessage[],
    options: { maxTokens?: number; signal?: AbortSignal } = {},
  ): Promise<{ text: string; usage: ChatUsage | null }> {
    const res = await this.post(this.request(messages, options.maxTokens, false), options.signal);
    const body = (await res.json()) as CompletionBody;
    const text = body.choices?.[0]?.message?.content;
    if (typeof text !== 'string') throw new ChatClientError('respuesta del modelo de chat sin contenido', res.status);
    return { text, usage: usageOf(body.usage) };
  }

  async *stream(
    messages: ChatMessage[],
    options: { maxTokens?: number; signal?: AbortSignal } = {},
  ): AsyncIterable<ChatChunk> {
    const res = await this.post(this.request(messages, options.maxTokens, true), options.signal);
    if (!res.body) throw new ChatClientError('respuesta del modelo de chat sin cuerpo', res.status);
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const bytes of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(bytes, { stream: true });
      let end: number;
      while ((end = buffer.search(/\r?\n\r?\n/)) !== -1) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
        const data = event
          .split(/\r?\n/)
          .filter((l) => l.startsWith('data:'))
          .map((l) => l.slice(5).trimStart())
          .join('\n');
        if (!data) continue;
        if (data === '[DONE]') return;
        let chunk: CompletionBody;
        try {
          chunk = JSON.parse(data) as CompletionBody;
        } catch {
          continue;
        }
        if (chunk.error)
          throw new ChatClientError(`error del modelo de chat: ${chunk.error.message ?? ''}`.slice(0, 240), res.status);
        const text = chunk.choices?.[0]?.delta?.content;
        if (text) yield { type: 'delta', text };
        const usage = usageOf(chunk.usage);
        if (usage) yield { type: 'usage', usage };
      }
    }
  }
}
