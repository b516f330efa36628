/** The part of a DOM element (linkedom's) this walk uses. */
export interface WalkedElement {
  readonly localName: string;
  readonly firstElementChild: WalkedElement | null;
  readonly nextElementSibling: WalkedElement | null;
}

/**
 * The elements under `root` whose tag is one of `names`, in document order, as `root.querySelectorAll('a, b')`
 * answers them (template contents left out, as linkedom does) but without a CSS selector: linkedom parses and
 * compiles the selector anew on every call (css-what + css-select), and Readability asks for tag lists hundreds of
 * times per page, so that compilation was a fifth of the time a reading thread spent on a small page and the
 * function V8's optimising compiler spent most on during a crawl (`--trace-opt`).
 */
export function elementsNamed<T extends WalkedElement>(
  root: { readonly firstElementChild: T | null },
  names: readonly string[],
): T[] {
  const wanted = new Set(names.map((name) => name.toLowerCase()));
  const found: T[] = [];
  // Ancestors whose following siblings are still to visit: an explicit stack, as a page may nest deeper than the
  // call stack allows.
  const ancestors: T[] = [];
  let el = root.firstElementChild;
  while (el) {
    // Tags compared without case, as a selector does in an HTML document (linkedom keeps `<P>` as `P`).
    if (wanted.has(el.localName.toLowerCase())) found.push(el);
    const child = el.localName === 'template' ? null : (el.firstElementChild as T | null);
    if (child) {
      ancestors.push(el);
      el = child;
      continue;
    }
    el = el.nextElementSibling as T | null;
    while (!el && ancestors.length > 0) el = ancestors.pop()!.nextElementSibling as T | null;
  }
  return found;
}
