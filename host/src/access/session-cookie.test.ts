import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { test } from 'node:test';
import { parseProxyTrust } from '../config/proxy-trust.js';
import { csrfMatches, csrfTokenFor } from './csrf.js';
import { clearedSessionCookie, requestIsSecure, sessionCookie, sessionCookieOf } from './session-cookie.js';

const request = (headers: Record<string, string>, remoteAddress = '127.0.0.1') =>
  ({ headers, socket: { remoteAddress } }) as unknown as IncomingMessage;

test('the session cookie is read among others; its attributes are HttpOnly, SameSite=Strict, Path=/ and Secure on demand', () => {
  assert.equal(
    sessionCookieOf(request({ cookie: 'tema=oscuro; cerebro_sesion=crs_abc.def; otra=1' }), false),
    'crs_abc.def',
  );
  assert.equal(sessionCookieOf(request({ cookie: 'tema=oscuro' }), false), undefined);
  assert.equal(sessionCookieOf(request({}), false), undefined);
  assert.equal(
    sessionCookie('crs_x.y', 3_600_000, false),
    'cerebro_sesion=crs_x.y; Max-Age=3600; Path=/; HttpOnly; SameSite=Strict',
  );
  assert.match(clearedSessionCookie(false), /^cerebro_sesion=; Max-Age=0; Path=\/; HttpOnly; SameSite=Strict$/);
});

test('over HTTPS the cookie is __Host-cerebro_sesion (no subdomain can plant it), and only that name is read there', () => {
  assert.equal(
    sessionCookie('crs_x.y', 3_600_000, true),
    '__Host-cerebro_sesion=crs_x.y; Max-Age=3600; Path=/; HttpOnly; Secure; SameSite=Strict',
  );
  assert.match(
    clearedSessionCookie(true),
    /^__Host-cerebro_sesion=; Max-Age=0; Path=\/; HttpOnly; Secure; SameSite=Strict$/,
  );
  const both = request({ cookie: 'cerebro_sesion=crs_plantada.x; __Host-cerebro_sesion=crs_buena.y' });
  assert.equal(sessionCookieOf(both, true), 'crs_buena.y');
  assert.equal(sessionCookieOf(both, false), 'crs_plantada.x');
  assert.equal(
    sessionCookieOf(request({ cookie: 'cerebro_sesion=crs_plantada.x' }), true),
    undefined,
    'the plain name is ignored over HTTPS',
  );
});

test('TLS is believed from X-Forwarded-Proto only when the socket peer is a trusted proxy; the nearest entry counts', () => {
  const loopback = parseProxyTrust('T', 'loopback');
  assert.equal(requestIsSecure(request({ 'x-forwarded-proto': 'https' }), loopback), true);
  assert.equal(requestIsSecure(request({ 'x-forwarded-proto': 'HTTPS' }), loopback), true);
  assert.equal(
    requestIsSecure(request({ 'x-forwarded-proto': 'https, http' }), loopback),
    false,
    'our proxy says http',
  );
  assert.equal(requestIsSecure(request({ 'x-forwarded-proto': 'http, https' }), loopback), true);
  assert.equal(
    requestIsSecure(request({ 'x-forwarded-proto': 'https' }, '203.0.113.5'), loopback),
    false,
    'not our proxy',
  );
  assert.equal(requestIsSecure(request({ 'x-forwarded-proto': 'https' }), null), false, 'no proxy trusted');
  assert.equal(requestIsSecure(request({}), loopback), false);
});

test('CSRF tokens: derived per session secret, compared exactly', () => {
  const a = csrfTokenFor('secreto-a');
  assert.equal(a, csrfTokenFor('secreto-a'));
  assert.notEqual(a, csrfTokenFor('secreto-b'));
  assert.equal(csrfMatches(a, a), true);
  for (const wrong of [undefined, '', a.slice(1), `${a} `, [a] as unknown as string[], csrfTokenFor('secreto-b')]) {
    assert.equal(csrfMatches(wrong, a), false, String(wrong));
  }
});
