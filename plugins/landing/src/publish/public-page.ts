// What a visitor receives at a published landing's address: the stored version's HTML, with the links to the
// call-to-action URL sent through the page's own click counter and, when the owner asked for it, a lead form; and
// the page that thanks for a sent form. Only this module's own escaped markup is added to the sanitized page; every
// link and the form's action are relative to the page's address, so nothing names the host.
import { esc } from '../compose/render.js';
import { THEMES, type Theme } from '../compose/themes.js';
import type { Language, ThemeId } from '../model.js';
import { formWords } from './form-words.js';

/** The lead form's fields and their limits (the route's schema enforces the same). */
export const LEAD_LIMITS = { nombre: 120, contacto: 200, mensaje: 2000, trampa: 200 } as const;
/** The honeypot: hidden from people, filled by form-filling robots. */
export const HONEYPOT = 'sitio_web';

export interface PublicPageOptions {
  /** The publication's token: the page is served at `…/p/<token>`. */
  token: string;
  ctaUrl: string | null;
  formulario: boolean;
  idioma: Language;
  tema: ThemeId;
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'" };
const decode = (value: string): string => value.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_, e: string) => ENTITIES[e]);

/** Whether clicks on the button are counted: web addresses only (a `mailto:` or `tel:` opens the visitor's app). */
export const countsClicks = (ctaUrl: string | null): ctaUrl is string =>
  ctaUrl !== null && /^https?:\/\//i.test(ctaUrl);

/** Links whose target is the call-to-action URL go through `<token>/cta`, which counts the click and redirects. */
function countClicks(html: string, token: string, ctaUrl: string | null): string {
  if (!countsClicks(ctaUrl)) return html;
  const through = `href="${esc(`${token}/cta`)}"`;
  return html.replace(/href="([^"]*)"/g, (attr, value: string) => (decode(value) === ctaUrl ? through : attr));
}

function formCss(t: Theme): string {
  return `.formulario form{display:grid;gap:1rem;max-width:36rem}
.campo{display:grid;gap:.35rem}
.campo label{font-weight:700}
.campo input,.campo textarea{font:inherit;color:${t.texto};background:${t.fondo};border:2px solid ${t.suave};border-radius:.6rem;padding:.7rem .85rem;width:100%}
.campo input:focus-visible,.campo textarea:focus-visible,.acepto input:focus-visible,.formulario button:focus-visible{outline:3px solid ${t.primario};outline-offset:2px}
.acepto{display:flex;gap:.6rem;align-items:flex-start}
.acepto input{width:1.25rem;height:1.25rem;margin:.2rem 0 0;flex:none}
.trampa{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}
.formulario button{font:inherit;font-weight:700;cursor:pointer;border:0;justify-self:start;background:${t.primario};color:${t.sobrePrimario};padding:.85rem 1.5rem;border-radius:.75rem}
.formulario button:hover{text-decoration:underline}`;
}

function leadForm(token: string, idioma: Language): string {
  const w = formWords(idioma);
  return `<section class="bloque formulario" id="formulario" aria-labelledby="t-formulario"><div class="envoltura">
<h2 id="t-formulario">${esc(w.titulo)}</h2><p>${esc(w.intro)}</p>
<form method="post" action="${esc(`${token}/contacto`)}" accept-charset="utf-8">
<div class="campo"><label for="f-nombre">${esc(w.nombre)}</label><input id="f-nombre" name="nombre" type="text" autocomplete="name" required maxlength="${LEAD_LIMITS.nombre}"></div>
<div class="campo"><label for="f-contacto">${esc(w.contacto)}</label><input id="f-contacto" name="contacto" type="text" autocomplete="email" required minlength="3" maxlength="${LEAD_LIMITS.contacto}" aria-describedby="f-contacto-ayuda"><p class="nota" id="f-contacto-ayuda">${esc(w.contactoAyuda)}</p></div>
<div class="campo"><label for="f-mensaje">${esc(w.mensaje)}</label><textarea id="f-mensaje" name="mensaje" rows="4" maxlength="${LEAD_LIMITS.mensaje}"></textarea></div>
<div class="trampa" aria-hidden="true"><label for="f-${HONEYPOT}">${esc(w.trampa)}</label><input id="f-${HONEYPOT}" name="${HONEYPOT}" type="text" tabindex="-1" autocomplete="off" maxlength="${LEAD_LIMITS.trampa}"></div>
<div class="acepto"><input id="f-consentimiento" name="consentimiento" type="checkbox" value="si" required><label for="f-consentimiento">${esc(w.consentimiento)}</label></div>
<button type="submit">${esc(w.enviar)}</button>
</form></div></section>
`;
}

/** The page a visitor sees: the stored version, its button counted, with the form when published with one. */
export function publicPage(html: string, o: PublicPageOptions): string {
  let page = countClicks(html, o.token, o.ctaUrl);
  if (!o.formulario) return page;
  const theme = THEMES[o.tema];
  page = page.replace('</head>', `<style>${formCss(theme)}</style>\n</head>`);
  // Before the footer: hand-edited pages without <main> still get the form inside <body>.
  const at = page.includes('</main>') ? '</main>' : '</body>';
  return page.replace(at, `${leadForm(o.token, o.idioma)}${at}`);
}

/**
 * The title a published page shows its visitors (its `<title>`, as text), or null: the thanks page is titled after
 * it, never after the owner's brief (`objetivo` is an internal note: "vender lámparas").
 */
export function pageTitle(html: string): string | null {
  const raw = /<title>([^<]*)<\/title>/i.exec(html)?.[1]?.trim();
  if (!raw) return null;
  return decode(raw);
}

/** Answered to a sent form (also to a robot's, so it cannot tell it was discarded). */
export function thanksPage(o: { token: string; idioma: Language; tema: ThemeId; titulo: string | null }): string {
  const w = formWords(o.idioma);
  const t = THEMES[o.tema];
  return `<!DOCTYPE html>
<html lang="${esc(o.idioma)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${esc(o.titulo ? `${w.gracias} · ${o.titulo}` : w.gracias)}</title>
<link rel="icon" href="data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7">
<style>body{margin:0;background:${t.fondo};color:${t.texto};font:1.0625rem/1.65 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif}
main{max-width:36rem;margin:0 auto;padding:3rem 1.25rem}
h1{font-size:clamp(1.75rem,6vw,2.5rem);line-height:1.2;margin:0 0 1rem}
a{color:${t.primario};font-weight:700;text-underline-offset:.18em}
a:focus-visible{outline:3px solid ${t.primario};outline-offset:3px}</style>
</head>
<body>
<main>
<h1>${esc(w.gracias)}</h1>
<p>${esc(w.graciasTexto)}</p>
<p><a href="${esc(`../${o.token}`)}">${esc(w.volver)}</a></p>
</main>
</body>
</html>
`;
}
