import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { termOf } from '../text/analyzer.js';
import { tempDir, type TempDir } from '../testing/fixtures.js';
import { prepareDocument } from './prepare.js';

let dir: TempDir;
before(async () => {
  dir = await tempDir();
});
after(() => dir.cleanup());

const SPANISH =
  'Para instalar los paquetes del sistema se usa la orden apt-get install con el nombre del paquete, y para ' +
  'actualizar la lista de paquetes disponibles se usa apt-get update antes de instalar nada nuevo en la máquina.';
const ENGLISH =
  'This section describes how the configuration files are kept when the packages of the system are upgraded, ' +
  'and what the administrator should do with the files that were changed by hand before the upgrade.';

test("a partly translated document: each passage is stemmed in its own language, headings in the document's", async () => {
  const md = `# Gestión de paquetes\n\n${SPANISH}\n\n${SPANISH}\n\n# Actualizaciones del sistema\n\n${ENGLISH}\n`;
  const result = await prepareDocument({
    path: await dir.file('guia.md', md),
    name: 'guia.md',
    chunk: { targetChars: 150, maxChars: 300, minChars: 50 },
  });
  assert.ok(result.ok);
  const { lang, passages } = result.document;
  assert.equal(lang, 'es');
  const english = passages.find((p) => p.text.startsWith('This section'));
  assert.ok(english, 'the English paragraph is a passage of its own');
  assert.ok(english.terms.split(' ').includes(termOf('files', 'en')), 'English body, English stems');
  assert.ok(!english.terms.split(' ').includes(termOf('files', 'es')));
  assert.ok(
    english.headingTerms.split(' ').includes(termOf('actualizaciones', 'es')),
    'Spanish heading, Spanish stems',
  );
  const spanish = passages.find((p) => p.text.startsWith('Para instalar'));
  assert.ok(spanish!.terms.split(' ').includes(termOf('paquetes', 'es')));
});
