import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Trouter } from 'trouter';
import { indexRoutes, type SegmentRouter } from './route-index.js';

/** Route shapes the host and the plugins register, and the ones the tree must leave to the regular expressions. */
const ROUTES: readonly [string, string][] = [
  ['GET', '/api/companies'],
  ['GET', '/api/companies/:espacio'],
  ['PATCH', '/api/companies/:espacio/api-config'],
  ['GET', '/api/companies/:espacio/api-config'],
  ['GET', '/api/companies/demo'], // a literal after a param of the same depth: both match, in this order
  ['POST', '/api/companies/:espacio/documents/:id'],
  ['DELETE', '/api/companies/:espacio/documents/:id'],
  ['GET', '/api/openapi.json'], // "." is a regular-expression character: tested on every request
  ['GET', '/api/mod/:modulo/:espacio/*'],
  ['GET', '/api/opcional/:id?'],
  ['GET', '/api/Mayusculas'],
  ['GET', '/'],
];

const URLS = [
  '/',
  '/api/companies',
  '/api/companies/',
  '/API/Companies',
  '/api/companies/demo',
  '/api/companies/otra',
  '/api/companies/otra/',
  '/api/companies/demo/api-config',
  '/api/companies//api-config',
  '/api/companies/a%2Fb/api-config',
  '/api/companies/x/documents/7',
  '/api/companies/x/documents',
  '/api/openapi.json',
  '/api/openapiXjson',
  '/api/mod/ventas/demo',
  '/api/mod/ventas/demo/a/b/c',
  '/api/opcional',
  '/api/opcional/3',
  '/api/mayusculas',
  '/nada',
  '/api//companies',
  '',
];

const METHODS = ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE', 'PUT', 'OPTIONS', 'PROPFIND'];

function routers() {
  const plain = new Trouter();
  const indexed = new Trouter();
  indexRoutes(indexed as unknown as SegmentRouter);
  ROUTES.forEach(([method, path], i) => {
    const handler = `${i} ${method} ${path}` as never;
    if (method === 'GET') {
      plain.get(path, handler); // the shortcut trouter bound to its own `add`: filed too
      indexed.get(path, handler);
    } else {
      plain.add(method as 'GET', path, handler);
      indexed.add(method as 'GET', path, handler);
    }
  });
  return { plain, indexed };
}

test('the indexed find answers exactly what trouter answers: same handlers in the same order, same params', () => {
  const { plain, indexed } = routers();
  for (const method of METHODS)
    for (const url of URLS)
      assert.deepEqual(indexed.find(method as 'GET', url), plain.find(method as 'GET', url), `${method} ${url}`);
});

test('middleware added with `use` and routes added after a lookup are found in their place', () => {
  const { plain, indexed } = routers();
  for (const router of [plain, indexed]) {
    router.find('GET', '/api/companies');
    router.use('/api', 'middleware' as never);
    router.head('/studio/*', 'studio' as never);
    router.all('/api/companies/:espacio', 'todas' as never);
  }
  for (const method of ['GET', 'HEAD', 'POST'])
    for (const url of ['/studio/app.js', '/studio', '/studio/', '/api/companies', '/api/companies/demo', '/otra'])
      assert.deepEqual(indexed.find(method as 'GET', url), plain.find(method as 'GET', url), `${method} ${url}`);
  assert.deepEqual(indexed.find('HEAD', '/studio/a/b.js').handlers, ['studio']);
});

test('answers stay the same past the bounds of the memo of paths: many paths, long paths', () => {
  const { plain, indexed } = routers();
  const urls = [
    ...Array.from({ length: 2500 }, (_, i) => `/api/companies/e${i % 1200}/api-config`),
    `/api/companies/${'x'.repeat(300)}`,
    `/api/companies/${'x'.repeat(300)}`,
  ];
  for (const url of urls) assert.deepEqual(indexed.find('GET', url), plain.find('GET', url), url);
});
