import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contentQuestion } from '../answer/question-words.js';
import { queryWords } from './analyzer.js';
import { identifierOf, literalWords } from './identifiers.js';

test('file names, paths, dotted, underscored and hyphenated names and options are identifiers', () => {
  assert.equal(identifierOf('sources.list?'), 'sources.list');
  assert.equal(identifierOf('`/etc/fstab`'), '/etc/fstab');
  assert.equal(identifierOf('/etc/apt/sources.list.d/'), '/etc/apt/sources.list.d/');
  assert.equal(identifierOf('(apt-get'), 'apt-get');
  assert.equal(identifierOf('X_FORWARDED,'), 'x_forwarded');
  assert.equal(identifierOf('--purge'), '--purge');
  assert.equal(identifierOf('-t'), '-t');
  assert.equal(identifierOf('.deb'), '.deb');
  assert.equal(identifierOf('APT::Default-Release'), 'apt::default-release');
  assert.equal(identifierOf('pool.ntp.org.'), 'pool.ntp.org', 'the end of the sentence is not part of the name');
});

test('ordinary words, numbers and times are not identifiers', () => {
  for (const chunk of ['paquete', '¿Cómo', 'terceros;', '1.5', '10:00', '8,99', '-', '--', ''])
    assert.equal(identifierOf(chunk), null, chunk);
});

test('the content question keeps an identifier whole, even where a part is a question-form word', () => {
  assert.equal(
    contentQuestion('¿puedo ponerlos en archivos aparte en vez de en sources.list?'),
    'ponerlos en archivos aparte en de en sources.list',
  );
  // "get" is a question-form word ("how do I get…"), not in `apt-get`.
  assert.deepEqual(queryWords(contentQuestion('¿Cómo uso apt-get clean?')), ['uso', 'apt', 'get', 'clean']);
  assert.deepEqual(queryWords(contentQuestion('¿Cómo uso apt y get?')), ['uso', 'apt']);
});

test("an identifier's parts are literal words, unless the question also says them on their own", () => {
  assert.deepEqual(literalWords('archivos aparte en vez de sources.list'), [false, false, false, true, true]);
  assert.deepEqual(literalWords('la lista de /etc/apt/sources.list'), [false, true, true, true, true]);
  // "list" is said alone too: it keeps its stem.
  assert.deepEqual(literalWords('list de sources.list'), [false, true]);
  assert.deepEqual(literalWords('opciones de dpkg --purge'), [false, false, true]);
  assert.deepEqual(literalWords('sin identificadores'), [], 'nothing to mark');
});
