import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the site received (times in ms since the epoch; `end` null while it is still open). */
export interface SiteRequest {
  path: string;
  start: number;
  end: number | null;
}

/** Most requests open at one moment among these. */
export function peakConcurrency(requests: readonly SiteRequest[]): number {
  const edges = requests.flatMap(
    (r) =>
      [
        [r.start, 1],
        [r.end ?? Infinity, -1],
      ] as const,
  );
  // At equal times an end comes before a start: a request answered as the next arrives was not open with it.
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let open = 0;
  let peak = 0;
  for (const [, step] of edges) peak = Math.max(peak, (open += step));
  return peak;
}

/** One page of the test site. */
interface Page {
  body: string | Buffer;
  type: string;
  lastModified: string;
}

export interface TestSiteOptions {
  /** How long `/docs/lento.html` takes to answer (default 3000 ms). */
  slowMs?: number;
  /** Size of `/docs/enorme.html` (default 2 MB; it sends no Content-Length, so only the reader's cap stops it). */
  hugeBytes?: number;
  /** Extra generated pages `/gen/<i>.html`, each linking to the next ones, listed in `/gen/sitemap.xml` (benchmarks). */
  generatedPages?: number;
  /** Delay added to every answer (a distant site; benchmarks and concurrency tests). */
  latencyMs?: number;
  /** robots.txt to serve instead of the default one. */
  robots?: string;
}

export interface TestSite {
  /** Base address, `http://localhost:<port>` (a name: allow it with `CEREBRO_FUENTES_PERMITIDOS=localhost`). */
  url: string;
  port: number;
  /** Requests received per path. */
  hits(path: string): number;
  /** Conditional requests answered 304. */
  notModified(): number;
  /** Requests for paths under `prefix`, in order of arrival: when each came and when its answer ended or was cut. */
  requests(prefix: string): SiteRequest[];
  /** Adds or changes a page (its ETag and Last-Modified change with it). */
  setPage(path: string, body: string, type?: string): void;
  /** The page answers 404 from now on. */
  removePage(path: string): void;
  /** The path answers `status` (empty body) from now on, whatever it holds; null gives it back (a site down, then up). */
  setStatus(path: string, status: number | null): void;
  close(): Promise<void>;
}

const html = (
  title: string,
  main: string,
  links: string[] = [],
) => `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>${title}</title></head>
<body><nav>${links.map((l) => `<a href="${l}">${l}</a>`).join(' | ')}</nav><header><p>Empresa Sol · Menú principal · Acceso clientes</p></header>
<main><article><h1>${title}</h1>${main}</article></main><footer><p>© Empresa Sol. Aviso legal. Política de privacidad.</p></footer></body></html>`;

/**
 * A small web site on loopback for the tests of module `fuentes`: links, robots.txt (with a disallowed folder and
 * a Sitemap line), a sitemap, an RSS feed, redirects (one to a literal 127.0.0.1 address), a 404, a slow page, an
 * oversized page, and ETag / Last-Modified answered with 304 when unchanged.
 */
export async function startTestSite(options: TestSiteOptions = {}): Promise<TestSite> {
  const slowMs = options.slowMs ?? 3000;
  const hugeBytes = options.hugeBytes ?? 2 * 1024 * 1024;
  const pages = new Map<string, Page>();
  const hits = new Map<string, number>();
  const statuses = new Map<string, number>();
  let notModified = 0;
  const requests: SiteRequest[] = [];
  let clock = Date.parse('2026-01-01T00:00:00Z');
  const setPage = (path: string, body: string | Buffer, type = 'text/html; charset=utf-8') => {
    clock += 60_000;
    pages.set(path, { body, type, lastModified: new Date(clock).toUTCString() });
  };

  const server = createServer((req, res) => {
    const request: SiteRequest = { path: new URL(req.url ?? '/', base).pathname, start: Date.now(), end: null };
    requests.push(request);
    res.on('close', () => {
      request.end = Date.now();
    });
    if (!options.latencyMs) return serve(req, res);
    const timer = setTimeout(() => serve(req, res), options.latencyMs);
    res.on('close', () => clearTimeout(timer));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as AddressInfo).port;
  const base = `http://localhost:${port}`;

  const nav = [
    '/',
    '/docs/precios.html',
    '/docs/soporte.html',
    '/privado/secreto.html',
    '/docs/viejo',
    '/docs/falta.html',
    '/docs/enorme.html',
    '/docs/lento.html',
    '/salir',
    '/docs/imagen.png',
  ];
  setPage(
    '/',
    html(
      'Inicio',
      '<p>Bienvenido al sitio de Empresa Sol. Aquí encontrarás nuestros planes, precios y condiciones de soporte para clientes.</p>',
      nav,
    ),
  );
  setPage(
    '/docs/precios.html',
    html(
      'Precios',
      `<h2>Planes</h2><p>El plan Básico cuesta 10 euros al mes e incluye soporte por correo electrónico.</p>
<p>El plan Avanzado cuesta 25 euros al mes e incluye soporte telefónico y copias de seguridad diarias.</p>`,
      nav,
    ),
  );
  setPage(
    '/docs/soporte.html',
    html(
      'Soporte',
      `<h2>Horario de soporte</h2><p>El soporte atiende de lunes a viernes, de 9 a 18 horas, en el teléfono 900 123 456.</p>
<p>Las incidencias urgentes se atienden en menos de 4 horas.</p>`,
      nav,
    ),
  );
  setPage(
    '/docs/nuevo.html',
    html(
      'Página nueva',
      '<p>Esta página sustituye a la antigua dirección de la documentación y explica cómo migrar los datos de la cuenta.</p>',
      nav,
    ),
  );
  setPage('/privado/secreto.html', html('Privado', '<p>Contenido que robots.txt no permite visitar.</p>'));
  setPage(
    '/blog/1.html',
    html(
      'Novedades de enero',
      '<p>En enero abrimos una oficina nueva en Valencia para atender a los clientes de la zona de Levante.</p>',
    ),
  );
  setPage(
    '/blog/2.html',
    html(
      'Novedades de febrero',
      '<p>Desde febrero el precio del plan Básico es de 12 euros al mes por la subida de costes de los servidores.</p>',
    ),
  );
  setPage(
    '/robots.txt',
    options.robots ?? `User-agent: *\nDisallow: /privado/\nSitemap: ${base}/sitemap.xml\n`,
    'text/plain',
  );
  setPage(
    '/sitemap.xml',
    `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>${base}/docs/precios.html</loc></url><url><loc>${base}/docs/soporte.html</loc></url><url><loc>${base}/blog/1.html</loc></url>
</urlset>`,
    'application/xml',
  );
  setPage(
    '/feed.xml',
    `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Blog de Empresa Sol</title>
<item><title>Enero</title><link>${base}/blog/1.html</link></item><item><title>Febrero</title><link>${base}/blog/2.html</link></item>
</channel></rss>`,
    'application/rss+xml',
  );
  setPage('/docs/imagen.png', Buffer.from('89504e470d0a1a0a', 'hex'), 'image/png');
  for (let i = 0; i < (options.generatedPages ?? 0); i++) {
    const links = [1, 2, 3]
      .map((d) => `/gen/${i + d}.html`)
      .filter((_, k) => i + k + 1 < (options.generatedPages ?? 0));
    setPage(
      `/gen/${i}.html`,
      html(
        `Página generada ${i}`,
        `<p>Texto de la página ${i}: ${'contenido de relleno para medir el rastreo, '.repeat(20)}</p>`,
        ['/', ...links],
      ),
    );
  }
  if (options.generatedPages) {
    setPage('/gen/index.html', html('Índice generado', '<p>Páginas generadas.</p>', ['/gen/0.html']));
    const locs = Array.from(
      { length: options.generatedPages },
      (_, i) => `<url><loc>${base}/gen/${i}.html</loc></url>`,
    ).join('');
    setPage(
      '/gen/sitemap.xml',
      `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs}</urlset>`,
      'application/xml',
    );
  }

  function serve(req: IncomingMessage, res: ServerResponse): void {
    const path = new URL(req.url ?? '/', base).pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const status = statuses.get(path);
    if (status !== undefined) {
      res.writeHead(status, { 'content-type': 'text/plain' });
      return void res.end();
    }
    if (path === '/docs/viejo') return redirect(res, 301, '/docs/nuevo.html');
    if (path === '/salir') return redirect(res, 302, `http://127.0.0.1:${port}/docs/precios.html`);
    if (path === '/metadatos') return redirect(res, 302, 'http://169.254.169.254/latest/meta-data/');
    if (path === '/bucle') return redirect(res, 302, '/bucle');
    if (path === '/docs/enorme.html') {
      res.writeHead(200, { 'content-type': 'text/html' });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      let sent = 0;
      const pump = () => {
        while (sent < hugeBytes && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      return pump();
    }
    if (path === '/docs/lento.html') {
      const timer = setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(html('Lenta', '<p>Una página que tarda en responder.</p>'));
      }, slowMs);
      res.on('close', () => clearTimeout(timer));
      return;
    }
    const page = pages.get(path);
    if (!page) {
      res.writeHead(404, { 'content-type': 'text/html' });
      return void res.end('<h1>No encontrada</h1>');
    }
    const etag = `"${createHash('sha256').update(page.body).digest('hex').slice(0, 16)}"`;
    if (req.headers['if-none-match'] === etag || req.headers['if-modified-since'] === page.lastModified) {
      notModified++;
      res.writeHead(304, { etag, 'last-modified': page.lastModified });
      return void res.end();
    }
    res.writeHead(200, {
      'content-type': page.type,
      etag,
      'last-modified': page.lastModified,
      'content-length': Buffer.byteLength(page.body),
    });
    res.end(page.body);
  }

  function redirect(res: ServerResponse, status: number, location: string): void {
    res.writeHead(status, { location });
    res.end();
  }

  return {
    url: base,
    port,
    hits: (path) => hits.get(path) ?? 0,
    notModified: () => notModified,
    requests: (prefix) => requests.filter((r) => r.path.startsWith(prefix)).map((r) => ({ ...r })),
    setPage: (path, body, type) => setPage(path, body, type),
    removePage: (path) => {
      pages.delete(path);
    },
    setStatus: (path, status) => {
      if (status === null) statuses.delete(path);
      else statuses.set(path, status);
    },
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
