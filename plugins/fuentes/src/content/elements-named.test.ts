// The tag walk that stands in for linkedom's querySelectorAll: same elements, same order, no selector compiled.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseHTML } from 'linkedom';
import { elementsNamed } from './elements-named.js';

interface El {
  localName: string;
  firstElementChild: El | null;
  nextElementSibling: El | null;
  getAttribute(name: string): string | null;
}
interface Doc {
  firstElementChild: El | null;
  querySelectorAll(selectors: string): Iterable<El>;
  getElementById(id: string): El;
}
const doc = (html: string) => parseHTML(html).document as unknown as Doc;
const names = (els: El[]) => els.map((el) => `${el.localName}#${el.getAttribute('id')}`);

test('the elements of several tags in document order, as querySelectorAll gives them; template contents left out', () => {
  const html =
    '<html><body><div id="d1"><p id="p1"><a id="a1" href="/x">x</a></p></div><h2 id="h2"></h2><p id="p2"></p>' +
    '<template id="t"><p id="hidden"></p></template><div id="d2"><div id="d3"><p id="p3"></p></div></div></body></html>';
  const document = doc(html);
  const walked = elementsNamed(document, ['p', 'div', 'template']);
  assert.deepEqual(names(walked), names([...document.querySelectorAll('p, div, template')]));
  assert.deepEqual(names(walked), ['div#d1', 'p#p1', 'p#p2', 'template#t', 'div#d2', 'div#d3', 'p#p3']);
  assert.deepEqual(names(elementsNamed(document.getElementById('d2'), ['P'])), ['p#p3']);
});

test('a page nested deeper than the call stack allows is walked whole', () => {
  const depth = 20_000;
  const document = doc(`<html><body>${'<div>'.repeat(depth)}<p id="deep"></p>${'</div>'.repeat(depth)}</body></html>`);
  assert.deepEqual(names(elementsNamed(document, ['p'])), ['p#deep']);
});
