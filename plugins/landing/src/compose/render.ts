// Renders a page: one self-contained HTML5 file (no script, no external request) from the composed copy, the
// plan's section order and the theme. Every text goes through `esc`; URLs are the caller's checked CTA and contact.
import type { Plan, SectionId } from '../model.js';
import type { PageCopy } from './copy.js';
import { pageCss } from './styles.js';
import { THEMES } from './themes.js';

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** A 1×1 transparent GIF: an embedded icon, so no browser asks the host for /favicon.ico. */
const FAVICON = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

const ANCHORS: Readonly<Record<SectionId, string>> = {
  hero: 'inicio',
  beneficios: 'beneficios',
  caracteristicas: 'caracteristicas',
  precios: 'precios',
  preguntas_frecuentes: 'preguntas',
  cta: 'empezar',
  contacto: 'contacto',
};

const button = (c: PageCopy) => `<a class="boton" href="${esc(c.boton.url)}">${esc(c.boton.texto)}</a>`;

function section(id: SectionId, c: PageCopy, alternate: boolean): string {
  const cls = `bloque${alternate ? ' alterno' : ''}`;
  const open = (title: string) =>
    `<section class="${cls}" id="${ANCHORS[id]}" aria-labelledby="t-${ANCHORS[id]}"><div class="envoltura"><h2 id="t-${ANCHORS[id]}">${esc(title)}</h2>`;
  const close = '</div></section>';
  switch (id) {
    case 'hero': {
      const emojis = c.hero.emojis ? ` <span class="emojis" aria-hidden="true">${esc(c.hero.emojis)}</span>` : '';
      return `<section class="portada" id="inicio" aria-labelledby="t-inicio"><div class="envoltura"><h1 id="t-inicio">${esc(c.hero.titular)}</h1><p>${esc(c.hero.subtitulo)}${emojis}</p>${button(c)}</div></section>`;
    }
    case 'beneficios': {
      const cards = c.beneficios.items
        .map((i) => `<li class="tarjeta">${i.titulo ? `<h3>${esc(i.titulo)}</h3>` : ''}<p>${esc(i.texto)}</p></li>`)
        .join('');
      return `${open(c.beneficios.titulo)}<ul class="rejilla tres">${cards}</ul>${close}`;
    }
    case 'caracteristicas':
      return `${open(c.caracteristicas.titulo)}<ul class="lista">${c.caracteristicas.items.map((i) => `<li>${esc(i)}</li>`).join('')}</ul>${close}`;
    case 'precios': {
      const cards = c.precios.productos
        .map(
          (p) =>
            `<li class="tarjeta producto"><h3>${esc(p.nombre)}</h3>${p.descripcion ? `<p class="nota">${esc(p.descripcion)}</p>` : ''}` +
            `<p class="precio">${esc(p.precio)}</p><p class="nota${p.agotado ? ' agotado' : ''}">${esc(p.disponibilidad)}</p>${p.agotado ? '' : button(c)}</li>`,
        )
        .join('');
      return `${open(c.precios.titulo)}<ul class="rejilla tres">${cards}</ul>${close}`;
    }
    case 'preguntas_frecuentes':
      return `${open(c.preguntas_frecuentes.titulo)}${c.preguntas_frecuentes.items.map((q) => `<details><summary>${esc(q.pregunta)}</summary><p>${esc(q.respuesta)}</p></details>`).join('')}${close}`;
    case 'cta':
      return `<section class="llamada" id="empezar" aria-labelledby="t-empezar"><div class="envoltura"><h2 id="t-empezar">${esc(c.cta.titulo)}</h2><p>${esc(c.cta.texto)}</p>${button(c)}</div></section>`;
    case 'contacto': {
      const link = c.contacto.enlace
        ? `<address><a href="${esc(c.contacto.enlace.href)}">${esc(c.contacto.enlace.texto)}</a></address>`
        : '';
      return `${open(c.contacto.titulo)}<p>${esc(c.contacto.texto)}</p>${link}${close}`;
    }
  }
}

const MENU_TITLES = (c: PageCopy): Partial<Record<SectionId, string>> => ({
  beneficios: c.beneficios.titulo,
  precios: c.precios.titulo,
  preguntas_frecuentes: c.preguntas_frecuentes.titulo,
  contacto: c.contacto.titulo,
});

/** The whole document. `sections` are those of the plan that have content, in the plan's order. */
export function renderPage(copy: PageCopy, plan: Plan, sections: readonly SectionId[]): string {
  const theme = THEMES[plan.tema_color];
  const titles = MENU_TITLES(copy);
  const menu = sections
    .filter((s) => titles[s])
    .map((s) => `<li><a href="#${ANCHORS[s]}">${esc(titles[s] as string)}</a></li>`)
    .join('');
  let band = 0;
  const body = sections
    .map((s) => {
      const banded = s === 'hero' || s === 'cta';
      const html = section(s, copy, !banded && band % 2 === 1);
      if (!banded) band++;
      return html;
    })
    .join('\n');
  // Without a hero the page still needs its one h1: the name in the top bar becomes it.
  const hasHero = sections.includes('hero');
  const brand = hasHero
    ? `<span class="marca">${esc(copy.nombre)}</span>`
    : `<h1 class="marca">${esc(copy.hero.titular)}</h1>`;
  return `<!DOCTYPE html>
<html lang="${esc(copy.idioma)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(copy.titulo)}</title>
<meta name="description" content="${esc(copy.descripcion)}">
<meta property="og:type" content="website">
<meta property="og:title" content="${esc(copy.titulo)}">
<meta property="og:description" content="${esc(copy.descripcion)}">
<meta property="og:locale" content="${copy.idioma === 'en' ? 'en_US' : 'es_ES'}">
<meta name="theme-color" content="${theme.banda}">
<link rel="icon" href="${FAVICON}">
<style>${pageCss(theme)}</style>
</head>
<body>
<header class="cabecera"><div class="envoltura">${brand}${menu ? `<nav class="menu" aria-label="${esc(copy.navegacion)}"><ul>${menu}</ul></nav>` : ''}</div></header>
<main>
${body}
</main>
<footer class="pie"><div class="envoltura"><p>${esc(copy.pie)}</p></div></footer>
</body>
</html>
`;
}
