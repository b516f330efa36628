// Lists every problem of a landing's HTML: what the allow-list sanitizer would remove, what would make the page
// load anything from elsewhere, and the structure every landing must have. `validar` answers these as a 422;
// generated pages are checked with the same function before they are stored.
import { parseDocument } from 'htmlparser2';
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

/** Largest stored landing, in UTF-8 bytes. */
export const MAX_LANDING_BYTES = 60 * 1024;

export interface Problem {
  /** Stable machine-readable code (see the module README). */
  codigo: string;
  /** One sentence in Spanish naming the element or attribute. */
  mensaje: string;
}

interface DomNode {
  type: string;
  name?: string;
  data?: string;
  attribs?: Record<string, string>;
  children?: DomNode[];
}

const DANGEROUS_TAGS: Readonly<Record<string, string>> = {
  link: 'un <link> carga recursos externos',
  script: 'un <script> ejecutaría código',
  iframe: 'un <iframe> incrusta otra página',
  frame: 'un <frame> incrusta otra página',
  frameset: 'un <frameset> incrusta otras páginas',
  object: 'un <object> carga contenido externo o ejecutable',
  embed: 'un <embed> carga contenido externo o ejecutable',
  applet: 'un <applet> ejecuta código',
  form: 'un <form> enviaría datos a otro sitio',
  input: 'un <input> pertenece a un formulario',
  button: 'un <button> pertenece a un formulario',
  base: 'un <base> cambia el destino de todos los enlaces',
  svg: 'un <svg> en línea puede llevar código',
  math: 'un <math> en línea puede ocultar código',
  template: 'un <template> oculta contenido',
  noscript: 'un <noscript> no tiene sentido en una página sin JavaScript',
  video: 'un <video> carga contenido externo',
  audio: 'un <audio> carga contenido externo',
  source: 'un <source> carga contenido externo',
  portal: 'un <portal> incrusta otra página',
};

function scheme(url: string): string | null {
  // Browsers ignore control characters and whitespace inside a scheme (`jav&#x09;ascript:`): remove them first.
  const compact = url.replace(/[\u0000-\u0020\u007f-\u009f]+/g, '');
  const m = /^([a-z][a-z0-9+.-]*):/i.exec(compact);
  return m ? m[1].toLowerCase() : null;
}

function textOf(node: DomNode): string {
  if (node.type === 'text') return node.data ?? '';
  return (node.children ?? []).map(textOf).join('');
}

function checkAttributes(el: DomNode, name: string, problems: Problem[]): void {
  const allowed = new Set([...(ALLOWED_ATTRIBUTES['*'] ?? []), ...(ALLOWED_ATTRIBUTES[name] ?? [])]);
  for (const [attr, value] of Object.entries(el.attribs ?? {})) {
    if (/^on/i.test(attr)) {
      problems.push({
        codigo: 'manejador_de_eventos',
        mensaje: `<${name} ${attr}>: los manejadores de eventos ejecutan código.`,
      });
      continue;
    }
    if (attr === 'style') {
      problems.push({
        codigo: 'atributo_no_permitido',
        mensaje: `<${name} style>: los estilos van en el <style> de la cabecera.`,
      });
      continue;
    }
    if (!allowed.has(attr)) {
      problems.push({ codigo: 'atributo_no_permitido', mensaje: `<${name} ${attr}>: atributo no permitido.` });
      continue;
    }
    if (attr === 'href') {
      const s = scheme(value);
      if (s !== null && !LINK_SCHEMES.includes(s))
        problems.push({
          codigo: 'url_no_permitida',
          mensaje: `<${name} href="${value.slice(0, 40)}">: el esquema ${s}: no está permitido.`,
        });
      else if (/^\s*\/\//.test(value))
        problems.push({
          codigo: 'url_no_permitida',
          mensaje: `<${name} href="${value.slice(0, 40)}">: las URL sin esquema (//) no están permitidas.`,
        });
    }
    if (attr === 'src' && name === 'img' && !IMAGE_DATA_URL.test(value)) {
      const s = scheme(value);
      const codigo =
        s === 'http' || s === 'https' || /^\s*\/\//.test(value) || s === null ? 'peticion_externa' : 'url_no_permitida';
      problems.push({
        codigo,
        mensaje: `<img src="${value.slice(0, 40)}">: las imágenes van incrustadas como data:image (PNG, JPEG, GIF, WebP o AVIF).`,
      });
    }
  }
}

function checkMeta(el: DomNode, problems: Problem[]): void {
  const a = el.attribs ?? {};
  if ('http-equiv' in a) {
    problems.push({
      codigo: 'meta_no_permitida',
      mensaje: `<meta http-equiv="${a['http-equiv'].slice(0, 30)}">: no permitido (puede redirigir o recargar la página).`,
    });
  } else if (a.charset !== undefined && a.charset.toLowerCase() !== 'utf-8') {
    problems.push({
      codigo: 'meta_no_permitida',
      mensaje: `<meta charset="${a.charset.slice(0, 20)}">: la codificación debe ser utf-8.`,
    });
  } else if (a.name !== undefined && !META_NAMES.includes(a.name.toLowerCase())) {
    problems.push({
      codigo: 'meta_no_permitida',
      mensaje: `<meta name="${a.name.slice(0, 30)}">: no está en la lista permitida (${META_NAMES.join(', ')}).`,
    });
  } else if (a.property !== undefined && !META_PROPERTY.test(a.property)) {
    problems.push({
      codigo: 'meta_no_permitida',
      mensaje: `<meta property="${a.property.slice(0, 30)}">: solo se permiten propiedades og:.`,
    });
  }
}

interface Walk {
  problems: Problem[];
  headings: number[];
  h1: number;
  hasDoctype: boolean;
  lang: string | null;
  title: string;
  metas: Record<string, string>;
  imagesWithoutAlt: number;
  text: string[];
}

function walk(nodes: DomNode[], state: Walk): void {
  for (const node of nodes) {
    if (node.type === 'directive') {
      if (/^!doctype\s+html/i.test(node.data ?? '')) state.hasDoctype = true;
      continue;
    }
    if (node.type === 'comment') {
      // Plain comments are dropped silently; one holding markup (conditional comments, SSI) is hiding something.
      if (/[<>]|#exec|\[if/i.test(node.data ?? ''))
        state.problems.push({
          codigo: 'comentario_no_permitido',
          mensaje: 'Un comentario contiene marcado (comentario condicional o SSI): se eliminaría.',
        });
      continue;
    }
    if (node.type === 'text') {
      state.text.push(node.data ?? '');
      continue;
    }
    const name = (node.name ?? '').toLowerCase();
    if (node.type === 'script' || node.type === 'style' || node.type === 'tag') {
      if (!ALLOWED_TAGS.includes(name)) {
        state.problems.push({
          codigo: 'etiqueta_no_permitida',
          mensaje: `<${name}>: ${DANGEROUS_TAGS[name] ?? 'etiqueta no permitida'}.`,
        });
        continue; // its content goes with it, as the sanitizer removes it
      }
      if (name === 'link') {
        if (!isEmbeddedIcon(node.attribs ?? {}))
          state.problems.push({
            codigo: 'peticion_externa',
            mensaje: `<link rel="${(node.attribs?.rel ?? '').slice(0, 20)}">: ${DANGEROUS_TAGS.link}; solo se admite el icono incrustado (rel="icon" con data:image).`,
          });
        continue;
      }
      checkAttributes(node, name, state.problems);
      if (name === 'meta') checkMeta(node, state.problems);
      if (name === 'meta' && node.attribs) {
        const key = node.attribs.name ?? node.attribs.property;
        if (key) state.metas[key.toLowerCase()] = node.attribs.content ?? '';
      }
      if (name === 'html') state.lang = node.attribs?.lang ?? null;
      if (name === 'title') state.title = textOf(node).trim();
      if (name === 'style') {
        for (const p of cssProblems(textOf(node))) {
          state.problems.push({
            codigo: /petición externa|@import/.test(p) ? 'peticion_externa' : 'css_no_permitido',
            mensaje: `<style>: ${p}.`,
          });
        }
        continue;
      }
      if (name === 'img' && !(node.attribs && 'alt' in node.attribs)) state.imagesWithoutAlt++;
      const level = /^h([1-6])$/.exec(name);
      if (level) {
        state.headings.push(Number(level[1]));
        if (level[1] === '1') state.h1++;
      }
      if (name === 'title') continue; // the title is not page text
      walk(node.children ?? [], state);
    }
  }
}

/** The visible text of the body, for the figure check. */
export function visibleText(html: string): string {
  const state = inspectState(html);
  return state.text.join(' ');
}

function inspectState(html: string): Walk {
  const doc = parseDocument(html, {
    lowerCaseTags: true,
    lowerCaseAttributeNames: true,
    decodeEntities: true,
  }) as unknown as DomNode;
  const state: Walk = {
    problems: [],
    headings: [],
    h1: 0,
    hasDoctype: false,
    lang: null,
    title: '',
    metas: {},
    imagesWithoutAlt: 0,
    text: [],
  };
  walk(doc.children ?? [], state);
  return state;
}

/** Every problem of `html`, empty when it can be stored as a landing as it is. */
export function inspectLanding(html: string): Problem[] {
  const state = inspectState(html);
  const problems = [...state.problems];
  const bytes = Buffer.byteLength(html, 'utf8');
  if (bytes > MAX_LANDING_BYTES)
    problems.push({
      codigo: 'demasiado_grande',
      mensaje: `La página ocupa ${bytes} bytes; el máximo es ${MAX_LANDING_BYTES} (60 KB).`,
    });
  if (!state.hasDoctype) problems.push({ codigo: 'sin_doctype', mensaje: 'Falta <!DOCTYPE html> al principio.' });
  if (!state.lang?.trim()) problems.push({ codigo: 'sin_idioma', mensaje: 'Falta el atributo lang en <html>.' });
  if (!state.title) problems.push({ codigo: 'sin_titulo', mensaje: 'Falta un <title> con texto.' });
  if (!state.metas.description?.trim())
    problems.push({ codigo: 'sin_descripcion', mensaje: 'Falta <meta name="description"> con texto.' });
  if (!state.metas.viewport)
    problems.push({
      codigo: 'sin_viewport',
      mensaje: 'Falta <meta name="viewport"> (la página no se adaptaría al móvil).',
    });
  for (const og of ['og:title', 'og:description', 'og:type']) {
    if (!state.metas[og]?.trim())
      problems.push({ codigo: 'sin_open_graph', mensaje: `Falta <meta property="${og}">.` });
  }
  if (state.h1 !== 1)
    problems.push({ codigo: 'h1', mensaje: `La página debe tener exactamente un <h1>; tiene ${state.h1}.` });
  if (state.headings.length > 0 && state.headings[0] !== 1)
    problems.push({
      codigo: 'encabezados_desordenados',
      mensaje: `El primer encabezado es <h${state.headings[0]}>; debe ser el <h1>.`,
    });
  for (let i = 1; i < state.headings.length; i++) {
    if (state.headings[i] > state.headings[i - 1] + 1) {
      problems.push({
        codigo: 'encabezados_desordenados',
        mensaje: `Un <h${state.headings[i]}> sigue a un <h${state.headings[i - 1]}>: se salta un nivel.`,
      });
    }
  }
  if (state.imagesWithoutAlt > 0)
    problems.push({ codigo: 'imagen_sin_alt', mensaje: `${state.imagesWithoutAlt} imagen(es) sin atributo alt.` });
  return problems;
}
