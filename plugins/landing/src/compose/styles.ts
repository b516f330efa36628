import type { Theme } from './themes.js';

/**
 * The page's only CSS, inline in `<head>`: mobile first (one column, then two and three from 40 and 64 rem),
 * system fonts (nothing to download), and the theme's colours, all checked for AA contrast (themes.ts).
 */
export function pageCss(t: Theme): string {
  return `*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;background:${t.fondo};color:${t.texto};font:1.0625rem/1.65 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Noto Sans",sans-serif;overflow-wrap:break-word}
img{max-width:100%;height:auto}
a{color:${t.primario};text-underline-offset:.18em}
a:focus-visible,summary:focus-visible{outline:3px solid ${t.primario};outline-offset:3px;border-radius:.25rem}
.envoltura{width:100%;max-width:68rem;margin:0 auto;padding:0 1.25rem}
.cabecera{background:${t.banda};color:${t.sobreBanda}}
.cabecera .envoltura{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.5rem 1.5rem;padding-top:1rem;padding-bottom:1rem}
.marca{font-weight:800;font-size:1.125rem;letter-spacing:.01em;margin:0}
h1.marca{font-size:clamp(1.35rem,4vw,1.75rem);line-height:1.25}
.menu{display:none}
.menu ul{display:flex;flex-wrap:wrap;gap:.25rem 1.25rem;margin:0;padding:0;list-style:none}
.menu a,.cabecera a{color:${t.sobreBanda};text-decoration:none;font-weight:600}
.menu a:hover{text-decoration:underline}
.cabecera a:focus-visible,.portada a:focus-visible,.llamada a:focus-visible{outline-color:${t.sobreBanda}}
.portada{background:${t.banda};color:${t.sobreBanda};padding:2.5rem 0 3.5rem}
.portada h1{font-size:clamp(2rem,7vw,3.4rem);line-height:1.12;letter-spacing:-.015em;margin:0 0 1rem;max-width:22ch}
.portada p{font-size:1.1875rem;line-height:1.55;max-width:38rem;margin:0 0 1.75rem}
.emojis{margin-left:.35rem}
.boton{display:inline-block;background:${t.primario};color:${t.sobrePrimario};padding:.85rem 1.5rem;border-radius:.75rem;font-weight:700;text-decoration:none;line-height:1.3;text-align:center}
.boton:hover{text-decoration:underline}
.portada .boton,.llamada .boton{background:${t.sobreBanda};color:${t.banda}}
.bloque{padding:3rem 0}
.bloque.alterno{background:${t.tarjeta}}
h2{font-size:clamp(1.5rem,4.5vw,2.15rem);line-height:1.2;letter-spacing:-.01em;margin:0 0 1.5rem}
h3{font-size:1.1875rem;line-height:1.3;margin:0 0 .5rem}
.rejilla{display:grid;gap:1rem;grid-template-columns:1fr;margin:0;padding:0;list-style:none}
.tarjeta{background:${t.tarjeta};border:1px solid ${t.borde};border-radius:1rem;padding:1.35rem 1.4rem}
.alterno .tarjeta{background:${t.fondo}}
.tarjeta p{margin:0}
.lista{margin:0;padding:0;list-style:none;display:grid;gap:.75rem}
.lista li{padding-left:1.75rem;position:relative}
.lista li::before{content:"";position:absolute;left:.25rem;top:.55em;width:.7rem;height:.7rem;border-radius:50%;background:${t.primario}}
.producto{display:flex;flex-direction:column;gap:.5rem}
.producto .boton{margin-top:auto;align-self:flex-start}
.precio{font-size:1.6rem;font-weight:800;letter-spacing:-.01em;margin:.25rem 0 0}
.nota{color:${t.suave};font-size:.9375rem}
.agotado{font-weight:700}
details{background:${t.tarjeta};border:1px solid ${t.borde};border-radius:.85rem;padding:0 1.25rem;margin:0 0 .75rem}
.alterno details{background:${t.fondo}}
summary{cursor:pointer;font-weight:700;padding:1rem 2rem 1rem 0;list-style:none;position:relative}
summary::-webkit-details-marker{display:none}
summary::after{content:"+";position:absolute;right:0;top:50%;transform:translateY(-50%);font-size:1.5rem;font-weight:400;line-height:1;color:${t.primario}}
details[open] summary::after{content:"−"}
details p{margin:0 0 1rem}
.llamada{background:${t.banda};color:${t.sobreBanda};padding:3rem 0;text-align:center}
.llamada h2{margin-bottom:.75rem}
.llamada p{margin:0 auto 1.5rem;max-width:36rem}
address{font-style:normal}
.pie{padding:2rem 0;color:${t.suave};font-size:.9375rem;border-top:1px solid ${t.borde}}
@media (min-width:40rem){.rejilla{grid-template-columns:repeat(2,1fr)}.menu{display:block}.portada{padding:4rem 0 4.5rem}.bloque{padding:4rem 0}}
@media (min-width:64rem){.rejilla.tres{grid-template-columns:repeat(3,1fr)}}
@media (prefers-reduced-motion:no-preference){html{scroll-behavior:smooth}}`;
}
