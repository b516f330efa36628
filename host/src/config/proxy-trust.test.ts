import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseBooleanSetting } from './boolean-setting.js';
import { parseProxyTrust, trustedCallerAddress } from './proxy-trust.js';

/** Just enough of a request for proxy-addr: the socket's peer and the forwarded header. */
const request = (peer: string, forwarded?: string) =>
  ({
    socket: { remoteAddress: peer },
    headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded },
  }) as never;

test('no proxy: empty, false and 0 ignore X-Forwarded-For', () => {
  for (const raw of [undefined, '', 'false', '0', ' FALSE '])
    assert.equal(parseProxyTrust('V', raw), null, String(raw));
});

test('the old "true" is refused with what to write instead', () => {
  for (const raw of ['true', 'TRUE', 'yes', 'on', 'sí']) {
    assert.throws(
      () => parseProxyTrust('CEREBRO_TRUST_PROXY', raw),
      /CEREBRO_TRUST_PROXY=.* ya no se admite.*loopback.*saltos/,
      raw,
    );
  }
});

test('a trusted list takes the first untrusted address from the right, not the client-written leftmost entry', () => {
  const trust = parseProxyTrust('V', 'loopback, 10.0.0.0/8')!;
  assert.equal(trustedCallerAddress(request('127.0.0.1', '203.0.113.7'), trust), '203.0.113.7');
  assert.equal(
    trustedCallerAddress(request('127.0.0.1', '198.51.100.1, 203.0.113.7'), trust),
    '203.0.113.7',
    'the spoofed leftmost entry is skipped',
  );
  assert.equal(
    trustedCallerAddress(request('127.0.0.1', '198.51.100.1, 203.0.113.7, 10.1.2.3'), trust),
    '203.0.113.7',
    'our inner proxy is skipped',
  );
  assert.equal(
    trustedCallerAddress(request('192.0.2.50', '198.51.100.1'), trust),
    '192.0.2.50',
    'a peer that is not our proxy is the caller',
  );
  assert.equal(
    trustedCallerAddress(request('::ffff:127.0.0.1', '203.0.113.7'), trust),
    '203.0.113.7',
    'IPv4-mapped loopback is loopback',
  );
  assert.equal(trustedCallerAddress(request('127.0.0.1'), trust), '127.0.0.1', 'no header: the peer');
});

test('a hop count trusts that many nearest hops', () => {
  const one = parseProxyTrust('V', '1')!;
  assert.equal(trustedCallerAddress(request('192.0.2.50', '198.51.100.1, 203.0.113.7'), one), '203.0.113.7');
  const two = parseProxyTrust('V', '2')!;
  assert.equal(trustedCallerAddress(request('192.0.2.50', '198.51.100.1, 203.0.113.7'), two), '198.51.100.1');
});

test('a malformed address list is refused naming the variable', () => {
  assert.throws(() => parseProxyTrust('CEREBRO_TRUST_PROXY', '10.0.0.0/99'), /CEREBRO_TRUST_PROXY debe ser/);
  assert.throws(() => parseProxyTrust('CEREBRO_TRUST_PROXY', 'mi-proxy'), /CEREBRO_TRUST_PROXY debe ser.*"mi-proxy"/);
});

test('boolean settings accept only known words', () => {
  for (const raw of ['1', 'true', 'Yes', 'sí', 'on']) assert.equal(parseBooleanSetting('V', raw), true, raw);
  for (const raw of ['0', 'false', 'NO', 'off']) assert.equal(parseBooleanSetting('V', raw), false, raw);
  for (const raw of ['ture', 'enabled', '2', 'verdadero'])
    assert.throws(() => parseBooleanSetting('CEREBRO_X', raw), /CEREBRO_X debe ser true o false.*recibido/, raw);
});
