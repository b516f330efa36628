import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CerebroEngine } from '../engine.js';
import { migratedDb, tempDir, type TempDir } from '../testing/fixtures.js';
import { detectLanguage, indexTerms, passageLanguage, queryTermGroups } from './analyzer.js';
import { loadLanguageIdentifier } from './language-identifier.js';

const FRENCH = `# L'atelier

La voiture est rangée dans le garage de l'atelier, à côté des outils. Les clés sont accrochées près de la porte et
le mécanicien les range chaque soir avant de partir.

# Les horaires

L'atelier ouvre du lundi au vendredi, de huit heures à dix-huit heures. Le samedi, il ferme à midi.
`;

const PORTUGUESE = `# A oficina

O carro fica guardado na garagem da oficina, ao lado das ferramentas. As chaves ficam penduradas perto da porta e o
mecânico guarda-as todas as noites antes de sair.

# Horário

A oficina abre de segunda a sexta-feira, das oito às dezoito horas. Aos sábados fecha ao meio-dia.
`;

// Spanish prose around many English command names and options: the kind of text eld measured worst on.
const SPANISH_COMMANDS = `# Actualizar el sistema

Ejecute \`sudo apt-get update\` y después \`sudo apt-get upgrade\`.

    sudo apt-get update
    sudo apt-get upgrade --with-new-pkgs
    systemctl restart nginx.service
    journalctl -u nginx --since today

Si \`apt-get\` no encuentra el repositorio, revise /etc/apt/sources.list.
`;

let dir: TempDir;
let engine: CerebroEngine;
before(async () => {
  dir = await tempDir();
  engine = new CerebroEngine({ db: migratedDb() });
  engine.start();
  const put = async (space: string, name: string, text: string) =>
    engine.documents.submit(space, { name, path: await dir.file(name, text), bytes: Buffer.byteLength(text) });
  await put('fr', 'atelier.md', FRENCH);
  await put('pt', 'oficina.md', PORTUGUESE);
  await put('es', 'actualizar.md', SPANISH_COMMANDS);
  await engine.documents.idle();
});
after(async () => {
  await engine.stop();
  await dir.cleanup();
});

const languageOf = async (space: string) =>
  (await engine.documents.list(space, { limit: 1, offset: 0 })).documents[0]?.lang;

test('a French and a Portuguese document are recorded in their language and stemmed with its stemmer', async () => {
  assert.equal(await languageOf('fr'), 'fr');
  assert.equal(await languageOf('pt'), 'pt');
  assert.deepEqual(indexTerms('rangée rangées voitures', 'fr'), ['rang', 'rang', 'voitur']);
  assert.deepEqual(
    indexTerms('o carro fica guardado', 'pt'),
    ['carr', 'fic', 'guard'],
    'Portuguese stopwords (o) dropped',
  );
});

test('a question in French or Portuguese finds the document in that language', async () => {
  const fr = await engine.ask({ space: 'fr', question: 'Où est rangée la voiture ?' });
  assert.equal(fr.found, true);
  assert.match(fr.text, /garage de l'atelier/);
  const pt = await engine.ask({ space: 'pt', question: 'Onde fica guardado o carro?' });
  assert.equal(pt.found, true);
  assert.match(pt.text, /garagem da oficina/);
  // An unrelated question in the same language is still declined.
  assert.equal(
    (await engine.ask({ space: 'fr', question: 'Combien coûte un billet d’avion pour Lima ?' })).found,
    false,
  );
});

test('a Spanish document full of English commands stays Spanish', async () => {
  assert.equal(await languageOf('es'), 'es');
});

test('the identifier is only asked about texts whose Spanish or English function words are few', async () => {
  const identify = await loadLanguageIdentifier();
  let asked = 0;
  const counting = (text: string) => {
    asked++;
    return identify(text);
  };
  assert.equal(
    detectLanguage('El sistema de paquetes de Debian es la base de la distribución y de sus herramientas.', counting),
    'es',
  );
  assert.equal(
    detectLanguage('The package system of Debian is the basis of the distribution and of its tools.', counting),
    'en',
  );
  assert.equal(asked, 0);
  assert.equal(
    detectLanguage('Das Paketsystem von Debian speichert die Liste der installierten Pakete.', counting),
    'de',
  );
  assert.equal(asked, 1);
  // Without the identifier (it is loaded only when needed), the detector answers Spanish or English as before.
  assert.equal(detectLanguage('Das Paketsystem von Debian speichert die Liste der installierten Pakete.'), 'es');
  // A French passage inside a Spanish manual is French; a short one keeps the document's language.
  const french =
    'Pour installer un paquet téléchargé, utilisez la commande dpkg avec l’option -i. Le système de paquets conserve la liste des paquets installés.';
  assert.equal(passageLanguage(french, 'es', identify), 'fr');
  assert.equal(passageLanguage('Utilisez la commande dpkg.', 'es', identify), 'es');
  // A question is analysed with the stopwords and stemmer of each language of the space.
  assert.deepEqual(queryTermGroups('Où est rangée la voiture ?', ['fr']), [['rang'], ['voitur']]);
});
