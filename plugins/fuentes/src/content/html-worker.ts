// Worker thread entry: reads one HTML page (linkedom + Readability), so a large page never blocks the server.
import { decodeHtml } from './page-content.js';
import { readHtmlPage, type HtmlPage } from './html-page.js';

export interface HtmlTask {
  body: Uint8Array;
  contentType: string | undefined;
  url: string;
}

export default function readHtmlTask(task: HtmlTask): HtmlPage {
  return readHtmlPage(decodeHtml(Buffer.from(task.body.buffer, task.body.byteOffset, task.body.byteLength), task.contentType), task.url);
}
