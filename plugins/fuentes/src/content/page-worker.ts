// Worker thread entry: the parsing a run does (HTML with linkedom + Readability, sitemaps and feeds with
// fast-xml-parser, gunzip of `.xml.gz`), so a large page or sitemap never blocks the server.
import { parentPort } from 'node:worker_threads';
import { gunzipSync } from 'node:zlib';
import { parseFeed, parseSitemap, type SitemapContent } from '../discover/xml-lists.js';
import { readHtmlPage, type HtmlPage } from './html-page.js';
import { decodeHtml } from './page-content.js';
import type { ThreadReply } from './reader-threads.js';

/** Largest decompressed `.xml.gz` sitemap. */
const MAX_XML_BYTES = 50 * 1024 * 1024;

export type WorkerTask =
  | { kind: 'html'; body: Uint8Array<ArrayBuffer>; contentType: string | undefined; url: string }
  | { kind: 'sitemap' | 'feed'; body: Uint8Array<ArrayBuffer> };

export type WorkerResult = HtmlPage | SitemapContent | string[] | null;

/** The body of an XML list as text: sitemaps are often served gzipped as files (`.xml.gz`). */
function xmlText(body: Buffer): string {
  if (body[0] === 0x1f && body[1] === 0x8b)
    return gunzipSync(body, { maxOutputLength: MAX_XML_BYTES }).toString('utf8');
  return body.toString('utf8');
}

export function runTask(task: WorkerTask): WorkerResult {
  const body = Buffer.from(task.body.buffer, task.body.byteOffset, task.body.byteLength);
  if (task.kind === 'html') return readHtmlPage(decodeHtml(body, task.contentType), task.url);
  const text = xmlText(body);
  return task.kind === 'sitemap' ? parseSitemap(text) : parseFeed(text);
}

// As a reading thread (`ReaderThreads`): one task per message, one reply each.
parentPort?.on('message', (task: WorkerTask) => {
  let reply: ThreadReply<WorkerResult>;
  try {
    reply = { result: runTask(task) };
  } catch (err) {
    reply = { error: err instanceof Error ? err.message : String(err) };
  }
  parentPort!.postMessage(reply);
});
