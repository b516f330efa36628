import type { ThemeId } from '../model.js';
import { AA_NORMAL_TEXT, contrastRatio } from './contrast.js';

/** The colours of a page. Every text colour is checked against every background it is drawn on (`textPairs`). */
export interface Theme {
  id: ThemeId;
  /** Page background and body text. */
  fondo: string;
  texto: string;
  /** Secondary text (captions, notes) on the page background and on cards. */
  suave: string;
  /** Cards and alternate bands. */
  tarjeta: string;
  borde: string;
  /** Buttons and links. */
  primario: string;
  sobrePrimario: string;
  /** Hero and call-to-action band. */
  banda: string;
  sobreBanda: string;
}

export const THEMES: Readonly<Record<ThemeId, Theme>> = {
  azul: {
    id: 'azul',
    fondo: '#ffffff',
    texto: '#1b2433',
    suave: '#4a5568',
    tarjeta: '#f3f6fb',
    borde: '#d5deec',
    primario: '#1d4ed8',
    sobrePrimario: '#ffffff',
    banda: '#0f2a5c',
    sobreBanda: '#ffffff',
  },
  verde: {
    id: 'verde',
    fondo: '#ffffff',
    texto: '#17261d',
    suave: '#46584c',
    tarjeta: '#f1f7f2',
    borde: '#cfe3d4',
    primario: '#166534',
    sobrePrimario: '#ffffff',
    banda: '#0d3b22',
    sobreBanda: '#ffffff',
  },
  violeta: {
    id: 'violeta',
    fondo: '#ffffff',
    texto: '#221a33',
    suave: '#544a66',
    tarjeta: '#f6f3fc',
    borde: '#ddd3f0',
    primario: '#6d28d9',
    sobrePrimario: '#ffffff',
    banda: '#2e1065',
    sobreBanda: '#ffffff',
  },
  coral: {
    id: 'coral',
    fondo: '#fffaf7',
    texto: '#2b1a14',
    suave: '#5e463c',
    tarjeta: '#fdeee6',
    borde: '#f3d3c3',
    primario: '#b3361a',
    sobrePrimario: '#ffffff',
    banda: '#7c2410',
    sobreBanda: '#ffffff',
  },
  oscuro: {
    id: 'oscuro',
    fondo: '#0f1419',
    texto: '#e8edf2',
    suave: '#b3bfcc',
    tarjeta: '#1a222c',
    borde: '#2d3a48',
    primario: '#7cc4ff',
    sobrePrimario: '#0b1a29',
    banda: '#16202b',
    sobreBanda: '#f4f7fa',
  },
  neutro: {
    id: 'neutro',
    fondo: '#fafaf9',
    texto: '#1c1917',
    suave: '#57534e',
    tarjeta: '#f0efed',
    borde: '#d6d3d1',
    primario: '#292524',
    sobrePrimario: '#ffffff',
    banda: '#292524',
    sobreBanda: '#fafaf9',
  },
};

/** Every (text, background) pair the page template draws. */
export function textPairs(t: Theme): { nombre: string; texto: string; fondo: string }[] {
  return [
    { nombre: 'texto/fondo', texto: t.texto, fondo: t.fondo },
    { nombre: 'suave/fondo', texto: t.suave, fondo: t.fondo },
    { nombre: 'texto/tarjeta', texto: t.texto, fondo: t.tarjeta },
    { nombre: 'suave/tarjeta', texto: t.suave, fondo: t.tarjeta },
    { nombre: 'primario/fondo (enlaces)', texto: t.primario, fondo: t.fondo },
    { nombre: 'primario/tarjeta (enlaces)', texto: t.primario, fondo: t.tarjeta },
    { nombre: 'botón', texto: t.sobrePrimario, fondo: t.primario },
    { nombre: 'banda', texto: t.sobreBanda, fondo: t.banda },
  ];
}

/** The pairs of a theme below AA (empty when the theme passes). */
export function contrastFailures(t: Theme): string[] {
  return textPairs(t)
    .map((p) => ({ ...p, ratio: contrastRatio(p.texto, p.fondo) }))
    .filter((p) => p.ratio < AA_NORMAL_TEXT)
    .map((p) => `${t.id} ${p.nombre}: ${p.ratio.toFixed(2)}:1`);
}
