import sanitizeHtml from 'sanitize-html';
import {
  ALLOWED_ATTRIBUTES,
  ALLOWED_TAGS,
  cssProblems,
  IMAGE_DATA_URL,
  isEmbeddedIcon,
  LINK_SCHEMES,
  META_NAMES,
  META_PROPERTY,
} from './allow-list.js';

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...ALLOWED_TAGS],
  allowedAttributes: Object.fromEntries(Object.entries(ALLOWED_ATTRIBUTES).map(([k, v]) => [k, [...v]])),
  allowedSchemes: [...LINK_SCHEMES],
  allowedSchemesByTag: { img: ['data'], link: ['data'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  allowProtocolRelative: false,
  // `<style>` is on the list on purpose: its text is checked below and the whole element dropped when it fails.
  allowVulnerableTags: true,
  disallowedTagsMode: 'discard',
  nonTextTags: [
    'script',
    'textarea',
    'option',
    'noscript',
    'iframe',
    'object',
    'embed',
    'template',
    'xmp',
    'noembed',
    'noframes',
    'plaintext',
  ],
  exclusiveFilter: (frame) => {
    if (frame.tag === 'style') return cssProblems(frame.text).length > 0;
    if (frame.tag === 'link') return !isEmbeddedIcon(frame.attribs);
    if (frame.tag === 'img') return !IMAGE_DATA_URL.test(String(frame.attribs.src ?? ''));
    if (frame.tag === 'meta') {
      const { name, property, charset } = frame.attribs;
      if (charset !== undefined) return String(charset).toLowerCase() !== 'utf-8';
      if (name !== undefined) return !META_NAMES.includes(String(name).toLowerCase());
      if (property !== undefined) return !META_PROPERTY.test(String(property));
      return true;
    }
    return false;
  },
};

/**
 * Passes HTML through the allow-list (sanitize-html, a maintained allow-list sanitizer on the htmlparser2 parser)
 * and returns a complete document. Everything not listed is removed: scripts and their content, event handlers,
 * `javascript:`/`vbscript:` and non-image `data:` URLs, iframes, objects, forms, `<base>`, `<link>`, `http-equiv`
 * metas (refresh), any `<link>` but an embedded icon, `style` attributes, and a `<style>` whose CSS loads anything or holds script hooks.
 */
export function sanitizeLanding(html: string): string {
  const clean = sanitizeHtml(html, OPTIONS);
  // sanitize-html drops the doctype (not an element); every stored page starts with it again.
  return `<!DOCTYPE html>\n${clean.trimStart()}`;
}
