import { apiUrl, csrfHeaders, readResponse } from './client.js';

export interface StreamEvent {
  event: string;
  data: unknown;
}

/**
 * POSTs a JSON body to a server-sent-events route and yields each event as it arrives. EventSource cannot POST or
 * send the CSRF header, so the stream is read from fetch's body. Aborting the signal closes the connection (the
 * server then stops the work and does not charge it).
 */
export async function* postEventStream(path: string, json: unknown, signal?: AbortSignal): AsyncGenerator<StreamEvent> {
  const response = await fetch(apiUrl(path), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream', ...csrfHeaders('POST') },
    body: JSON.stringify(json),
    credentials: 'same-origin',
    signal,
  });
  if (!response.ok || !response.body) {
    await readResponse(response);
    return;
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value.replace(/\r\n?/g, '\n');
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = parseBlock(block);
      if (event) yield event;
    }
  }
}

/** One SSE block: `event:` and `data:` lines; comment lines (`: ping`) are keep-alives and are skipped. */
function parseBlock(block: string): StreamEvent | null {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length === 0) return null;
  const text = data.join('\n');
  try {
    return { event, data: JSON.parse(text) };
  } catch {
    return { event, data: text };
  }
}
