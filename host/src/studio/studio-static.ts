import { existsSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { Polka, Request } from 'polka';
import sirv, { type RequestHandler } from 'sirv';
import type { Logger as PinoLogger } from 'pino';
import type { HostConfig } from '../config/host-config.js';
import { beginStudioAnswer, plainAnswer, redirectAnswer } from './studio-answers.js';

/** Vite writes content-hashed files under `assets/`: they never change, so browsers keep them for a year. */
const HASHED = /^\/assets\//;

const NOT_BUILT = `<!doctype html>
<html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Studio no está construido</title></head>
<body><main><h1>Studio no está construido</h1>
<p>Este servidor no encuentra la consola compilada. Ejecuta <code>npm run build</code> en la instalación de Cerebro
(o revisa <code>CEREBRO_STUDIO_DIR</code>) y vuelve a cargar la página. La API sigue funcionando en <code>/api</code>.</p>
</main></body></html>
`;

export interface StudioDeps {
  config: HostConfig;
  log: PinoLogger;
}

/**
 * Serves the prebuilt console at `/studio/` outside the API pipeline (no credential needed to load it; every
 * API call it makes goes through the pipeline), including its page for one-time sign-in links, `/studio/entrar`,
 * which only shows a button: loading it uses nothing up (`POST /api/sesion/enlace` does). Only files
 * found in the build folder when the console is first served are ever sent (sirv's index of the folder), so a
 * path outside it cannot be reached however it is spelt; any other path without an extension gets `index.html`
 * (the console's own routes). Each answer gets an access log line with its request id.
 */
export function mountStudio(app: Polka, deps: StudioDeps): void {
  const { config, log } = deps;
  let files: RequestHandler | undefined;
  const serveFiles = (): RequestHandler | undefined => {
    if (files) return files;
    if (!existsSync(join(config.studioDir, 'index.html'))) return undefined;
    return (files = sirv(config.studioDir, {
      single: true,
      etag: true,
      dotfiles: false,
      setHeaders: (res, pathname) =>
        res.setHeader('Cache-Control', HASHED.test(pathname) ? 'public, max-age=31536000, immutable' : 'no-cache'),
    }));
  };

  const assets = (req: Request, res: ServerResponse): void => {
    beginStudioAnswer(req, res, log);
    // polka's `/studio` also matches `/studio/`: only the bare one moves, so relative URLs resolve under the folder.
    if (req.path === '/studio') return redirectAnswer(res, 301, '/studio/');
    const handler = serveFiles();
    if (!handler) return plainAnswer(res, 503, NOT_BUILT, 'text/html; charset=utf-8');
    // The console's files are small and loaded whole: Range requests are answered with the whole file (allowed by
    // RFC 9110), which also keeps malformed or inverted ranges away from sirv's lenient parser.
    delete req.headers.range;
    const original = req.url;
    req.url = req.url.slice('/studio'.length) || '/';
    try {
      handler(req, res, () => plainAnswer(res, 404, 'No encontrado.'));
    } finally {
      req.url = original;
    }
  };
  for (const path of ['/studio', '/studio/*']) {
    app.get(path, assets);
    app.head(path, assets);
  }
}
