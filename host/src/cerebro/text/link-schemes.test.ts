import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withoutLinkSchemes } from './link-schemes.js';
import { words } from './analyzer.js';

test("an address's scheme is not a word of the text; the rest of the address and a scheme said as a word are", () => {
  assert.deepEqual(words(withoutLinkSchemes('Véase https://www.debian.org/ y FTP://ftp.gnu.org')), [
    'véase',
    'www',
    'debian',
    'org',
    'y',
    'ftp',
    'gnu',
    'org',
  ]);
  assert.deepEqual(words(withoutLinkSchemes('Apache sirve HTTPS con mod_ssl')), [
    'apache',
    'sirve',
    'https',
    'con',
    'mod',
    'ssl',
  ]);
});
