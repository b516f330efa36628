import { parseHTML } from 'linkedom';
import type { WalkedElement } from './elements-named.js';

/** A linkedom node as the reader uses it. */
interface PageNode {
  readonly nodeType: number;
  readonly childNodes: ArrayLike<PageNode>;
  remove(): void;
}

/** A linkedom element as the reader uses it. */
export interface PageElement extends WalkedElement, PageNode {
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
  readonly textContent: string | null;
  readonly innerHTML: string;
  append(...nodes: PageNode[]): void;
}

/** A linkedom document as the reader uses it. */
export interface PageDocument {
  readonly firstElementChild: PageElement | null;
  readonly childNodes: ArrayLike<PageNode>;
  createElement(tag: string): PageElement;
  append(...nodes: PageNode[]): void;
}

const ELEMENT_NODE = 1;
const DOCUMENT_TYPE_NODE = 10;
/** Elements that belong in `<head>` when a page without one puts them at its top. */
const HEAD_TAGS = new Set(['title', 'meta', 'base', 'link']);

/** An element's tag in lower case (linkedom keeps `<BODY>` as written); '' for other nodes. */
const tagOf = (node: PageNode) => (node.nodeType === ELEMENT_NODE ? (node as PageElement).localName.toLowerCase() : '');

/**
 * Parses a page, giving a page written without `<body>` one. linkedom builds the tree as written, without the tags
 * HTML implies: a fragment, a template or a page that leaves out `<body>` has none, and `document.body` then makes
 * an empty one inside whatever element comes first. Readability read nothing from it, or threw while walking up
 * from a paragraph to a BODY that is not among its ancestors (or, on a page with no element at all, at once), and
 * the page failed as damaged. Such a page is laid out anew as `<html><head>…</head><body>…</body></html>`; a page
 * whose body `document.body` finds is left exactly as parsed, so it reads as it did.
 */
export function parsePage(html: string): PageDocument {
  const { document } = parseHTML(html) as unknown as { document: PageDocument };
  if (!bodyFound(document)) giveBody(document);
  return document;
}

/** Whether linkedom's `document.body` is an element of the page: first child of the root, or the one after `<head>`. */
function bodyFound(document: PageDocument): boolean {
  let el = (document.firstElementChild?.firstElementChild ?? null) as PageElement | null;
  if (el && tagOf(el) === 'head') el = el.nextElementSibling as PageElement | null;
  return el !== null && tagOf(el) === 'body';
}

/**
 * Moves the document's nodes into a new `<html>`: what was in `<head>` and the head elements at the top go to its
 * head, everything else to its body, in order (the `<html>`, `<head>` and `<body>` written are unwrapped).
 */
function giveBody(document: PageDocument): void {
  const root = document.createElement('html');
  const head = document.createElement('head');
  const body = document.createElement('body');
  root.append(head, body);
  const place = (node: PageNode, inHead: boolean): void => {
    const tag = tagOf(node);
    if (tag === 'html' || tag === 'head' || tag === 'body') {
      for (const child of Array.from(node.childNodes)) place(child, tag === 'head');
      node.remove();
      return;
    }
    (inHead || HEAD_TAGS.has(tag) ? head : body).append(node);
  };
  for (const node of Array.from(document.childNodes)) if (node.nodeType !== DOCUMENT_TYPE_NODE) place(node, false);
  document.append(root);
}
