import { existsSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { Logger as PinoLogger } from 'pino';
import type { Polka, Request } from 'polka';
import sirv, { type RequestHandler } from 'sirv';
import type { HostConfig } from '../config/host-config.js';
import type { Lifecycle } from '../kernel/lifecycle.js';
import { requestIdFor } from '../http/request-context.js';
import type { ConsoleSessions } from './console-sessions.js';
import type { SignInLinks } from './sign-in-links.js';
import { startBrowserSession } from './session-start.js';
import { callerIp } from '../http/request-context.js';

/**
 * Headers of every Studio answer. The CSP allows only the console's own files (no inline script, no other
 * origin); `frame-src 'self'` lets it preview a landing in a sandboxed frame; nobody may frame the console.
 */
export const STUDIO_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Security-Policy': "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; frame-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
});

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
  lifecycle: Lifecycle;
  sessions: ConsoleSessions;
  links: SignInLinks;
}

/**
 * Serves the prebuilt console at `/studio/` outside the API pipeline (no credential needed to load it; every
 * API call it makes goes through the pipeline), and the one-time sign-in links at `/studio/entrar`. Only files
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
      single: true, etag: true, dotfiles: false,
      setHeaders: (res, pathname) => res.setHeader('Cache-Control', HASHED.test(pathname) ? 'public, max-age=31536000, immutable' : 'no-cache'),
    }));
  };

  const begin = (req: Request, res: ServerResponse): string => {
    const id = requestIdFor(req.headers['x-request-id']);
    res.setHeader('X-Request-Id', id);
    for (const [name, value] of Object.entries(STUDIO_HEADERS)) res.setHeader(name, value);
    // 'close' also fires when the client goes away mid-answer: every request gets its line.
    res.once('close', () => log.info({ method: req.method, path: req.path.slice(0, 200), reqId: id, status: res.statusCode }, 'petición'));
    return id;
  };

  const plain = (res: ServerResponse, status: number, text: string, type = 'text/plain; charset=utf-8') => {
    res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(text), 'Cache-Control': 'no-cache' });
    res.end(text);
  };

  const redirect = (res: ServerResponse, location: string, headers: Record<string, string> = {}) => {
    res.writeHead(303, { Location: location, 'Cache-Control': 'no-store', 'Content-Length': 0, ...headers });
    res.end();
  };

  app.get('/studio/entrar', (req, res) => {
    begin(req, res);
    try {
      deps.lifecycle.enter();
    } catch {
      res.setHeader('Retry-After', '5');
      return plain(res, 503, 'El servicio está arrancando o deteniéndose; reintenta en unos segundos.');
    }
    try {
      const ownerId = deps.links.consume((req.query as Record<string, unknown>).token);
      if (!ownerId) return redirect(res, '/studio/?enlace=no-valido');
      const started = startBrowserSession(req, ownerId, 'enlace', callerIp(req, config.trustProxy), deps.sessions, config);
      log.info({ propietario: ownerId, sesion: started.id }, 'entrada en Studio con enlace de un solo uso');
      redirect(res, '/studio/', { 'Set-Cookie': started.cookie });
    } catch (err) {
      log.error({ err }, 'no se pudo usar el enlace de entrada');
      plain(res, 500, 'Error interno del servidor.');
    } finally {
      deps.lifecycle.leave();
    }
  });

  const assets = (req: Request, res: ServerResponse): void => {
    begin(req, res);
    // polka's `/studio` also matches `/studio/`: only the bare one moves, so relative URLs resolve under the folder.
    if (req.path === '/studio') {
      res.writeHead(301, { Location: '/studio/', 'Content-Length': 0 });
      res.end();
      return;
    }
    const handler = serveFiles();
    if (!handler) return plain(res, 503, NOT_BUILT, 'text/html; charset=utf-8');
    // The console's files are small and loaded whole: Range requests are answered with the whole file (allowed by
    // RFC 9110), which also keeps malformed or inverted ranges away from sirv's lenient parser.
    delete req.headers.range;
    const original = req.url;
    req.url = req.url.slice('/studio'.length) || '/';
    try {
      handler(req, res, () => plain(res, 404, 'No encontrado.'));
    } finally {
      req.url = original;
    }
  };
  for (const path of ['/studio', '/studio/*']) {
    app.get(path, assets);
    app.head(path, assets);
  }
}
