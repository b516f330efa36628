// The address guard alone: which addresses are refused, and that the socket connects to the address checked.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { GuardedFetcher } from '../fetch/http-fetcher.js';
import { FetchFailure } from '../fetch/fetch-failure.js';
import { AddressPolicy } from '@cerebro/sdk';
import type { Resolver } from '@cerebro/sdk';

const LIMITS = { maxBytes: 1024 * 1024, timeoutMs: 2000, maxRedirects: 3 };

/** A resolver from a table: host names that exist only in the test. */
const table =
  (entries: Record<string, string[]>): Resolver =>
  async (host) => {
    const found = entries[host];
    if (!found) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

test('refused: loopback, private, link-local (cloud metadata), CGNAT, multicast, unspecified, reserved, IPv6 forms carrying them', () => {
  const policy = new AddressPolicy();
  for (const address of [
    '127.0.0.1',
    '127.1.2.3',
    '10.0.0.5',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.100.100.200',
    '224.0.0.1',
    '0.0.0.0',
    '255.255.255.255',
    '192.0.2.1',
    '::1',
    '::',
    'fe80::1',
    'fd00:ec2::254',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '2002:7f00:1::',
  ])
    assert.ok(policy.refusal(address), `${address} must be refused`);
  for (const address of ['8.8.8.8', '93.184.216.34', '2606:4700::1111', '::ffff:8.8.8.8'])
    assert.equal(policy.refusal(address), null, address);
});

test('the operator allow-list lets named hosts and CIDR ranges through, and nothing else', () => {
  const policy = AddressPolicy.fromSetting('intranet.local, 10.1.0.0/16 127.0.0.1');
  assert.equal(policy.allowsHost('INTRANET.local.'), true);
  assert.equal(policy.allowsHost('otra.local'), false);
  assert.equal(policy.refusal('10.1.200.3'), null);
  assert.equal(policy.refusal('::ffff:10.1.0.9'), null, 'the mapped form of an allowed address is allowed too');
  assert.ok(policy.refusal('10.2.0.1'));
  assert.equal(policy.refusal('127.0.0.1'), null);
  assert.ok(policy.refusal('127.0.0.2'));
});

test('URL forms of internal addresses (decimal, octal, hex, IPv4-mapped) are refused before any connection', async () => {
  const fetcher = new GuardedFetcher(new AddressPolicy(), LIMITS, 'prueba', table({}));
  for (const url of [
    'http://2130706433/',
    'http://0177.0.0.1/',
    'http://0x7f.0.0.1/',
    'http://127.1/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::1]:8080/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00:ec2::254]/',
    'http://0.0.0.0:80/',
  ]) {
    const failure = await fetcher.fetch({ url }).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(failure instanceof FetchFailure, url);
    assert.equal(failure.code, 'direccion_bloqueada', `${url}: ${failure.message}`);
  }
  for (const url of ['ftp://ejemplo.com/', 'file:///etc/passwd', 'http://usuario:clave@ejemplo.com/']) {
    const failure = await fetcher.fetch({ url }).then(
      () => null,
      (e: unknown) => e,
    );
    assert.equal((failure as FetchFailure).code, 'esquema_no_admitido', url);
  }
  fetcher.close();
});

test('a host name resolving to a private address is refused; a mixed answer (public and private) too', async () => {
  const fetcher = new GuardedFetcher(
    new AddressPolicy(),
    LIMITS,
    'prueba',
    table({ 'interno.prueba': ['10.0.0.5'], 'mixto.prueba': ['93.184.216.34', '127.0.0.1'] }),
  );
  for (const url of ['http://interno.prueba/', 'http://mixto.prueba/']) {
    const failure = await fetcher.fetch({ url }).then(
      () => null,
      (e: unknown) => e,
    );
    assert.equal((failure as FetchFailure).code, 'direccion_bloqueada', url);
    assert.match((failure as FetchFailure).message, /resuelve a (10\.0\.0\.5|127\.0\.0\.1)/);
  }
  fetcher.close();
});

test('the connection goes to the address the guard checked (a name only the resolver knows reaches the local server)', async (t) => {
  const server = createServer((req, res) => res.end(`hola ${req.headers.host}`));
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  t.after(() => new Promise((ok) => server.close(ok)));
  const port = (server.address() as AddressInfo).port;
  let lookups = 0;
  const resolver: Resolver = async () => {
    lookups++;
    return [{ address: '127.0.0.1', family: 4 }];
  };
  const allowed = new GuardedFetcher(new AddressPolicy(['127.0.0.1/32']), LIMITS, 'prueba', resolver);
  const res = await allowed.fetch({ url: `http://solo-en-la-prueba.invalid:${port}/` });
  assert.equal(res.body.toString(), `hola solo-en-la-prueba.invalid:${port}`, 'the Host header keeps the name');
  assert.equal(lookups, 1);
  allowed.close();
  const refused = new GuardedFetcher(new AddressPolicy(), LIMITS, 'prueba', resolver);
  const failure = await refused.fetch({ url: `http://solo-en-la-prueba.invalid:${port}/` }).then(
    () => null,
    (e: unknown) => e,
  );
  assert.equal((failure as FetchFailure).code, 'direccion_bloqueada');
  refused.close();
});
