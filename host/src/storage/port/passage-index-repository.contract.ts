// The behaviour every PassageIndexRepository gives (issues #24 and #25): run against SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { matchExpression, passageTerms, queryTermGroups } from '../../cerebro/index.js';
import { contractCase } from './contract-case.js';
import type { JobRun } from './document-job-repository.js';
import type { IndexedPassage, MatchPlan, PassageIndexRepository } from './passage-index-repository.js';

/** A document row as the document repository keeps it (the passage index joins and counts them). */
export interface PassageDocument {
  name: string;
  state?: 'queued' | 'processing' | 'ready' | 'failed';
  lang?: string | null;
  passages?: number;
  chars?: number;
}

export interface PassageIndexFixture {
  repo: PassageIndexRepository;
  addDocument(space: string, id: string, doc: PassageDocument): Promise<void>;
  /** The job steps, each run in a transaction of its own as the document repository would. */
  steps: {
    swapIn(run: JobRun): Promise<number>;
    hideDocument(space: string, documentId: string): Promise<void>;
    abandonOrphanRuns(): Promise<void>;
    deleteDocument(space: string, documentId: string): Promise<void>;
  };
  close(): Promise<void>;
}

const passage = (ord: number, text: string, headings: string[] = []): IndexedPassage => ({
  ord,
  text,
  page: ord === 0 ? 4 : null,
  headings,
  ...passageTerms(text, headings, 'es'),
});

/** A plan over the engine's own expressions: every word, then each word. */
function planOf(space: string, question: string, k: number): MatchPlan {
  const groups = queryTermGroups(question, ['es']);
  return {
    all: groups.length > 1 ? matchExpression(space, groups, true) : null,
    each: groups.map((g) => matchExpression(space, [g])).filter((e): e is string => e !== null),
    k,
    depth: 20,
    wordDepth: 40,
    spacePassages: 0,
  };
}

export function passageIndexRepositoryContract(name: string, make: () => Promise<PassageIndexFixture>): void {
  const contract = contractCase(name, make);

  contract('passages stored for a document are read back by id, in the order asked, never across spaces', async (f) => {
    await f.addDocument('acme', 'red', { name: 'red.md', lang: 'es', passages: 2, chars: 90 });
    await f.addDocument('otra', 'sec', { name: 'secreto.md', lang: 'es', passages: 1, chars: 40 });
    const before = await f.repo.contentVersion();
    const ids = await f.repo.replaceDocument('acme', 'red', [
      passage(0, 'La configuración del proxy se guarda en apt.conf.', ['Red', 'Proxy']),
      passage(1, 'El servidor DNS se define en resolv.conf.', ['Red', 'DNS']),
    ]);
    const [other] = await f.repo.replaceDocument('otra', 'sec', [passage(0, 'El proxy secreto usa el puerto 3128.')]);
    assert.equal(ids.length, 2);
    assert.ok(ids[0]! < ids[1]! && ids[1]! < other!, 'ids grow in the order passages are stored');
    assert.ok((await f.repo.contentVersion()) > before, 'a change of searchable passages bumps the version');
    const read = await f.repo.passages('acme', [ids[1]!, other!, ids[0]!, 999_999]);
    assert.deepEqual(
      read.map((p) => p.id),
      [ids[1], ids[0]],
    );
    assert.deepEqual(read[1], {
      id: ids[0],
      documentId: 'red',
      documentName: 'red.md',
      ord: 0,
      page: 4,
      headings: ['Red', 'Proxy'],
      text: 'La configuración del proxy se guarda en apt.conf.',
    });
    assert.deepEqual(await f.repo.passages('acme', []), []);
    assert.deepEqual(await f.repo.passageIds('acme', 'red'), ids);
    assert.equal(await f.repo.spacePassages('acme'), 2);
    assert.equal(await f.repo.spacePassages('nadie'), 0);
    assert.equal(await f.repo.indexPassages(), 3);
    assert.deepEqual(await f.repo.stats('acme'), { documents: 1, ready: 1, passages: 2, chars: 90 });
    assert.deepEqual(await f.repo.stats('nadie'), { documents: 0, ready: 0, passages: 0, chars: 0 });
    assert.deepEqual(await f.repo.languagePassages('acme'), [{ lang: 'es', passages: 2 }]);

    const replaced = await f.repo.replaceDocument('acme', 'red', [passage(0, 'Solo queda la impresora.')]);
    assert.deepEqual(await f.repo.passageIds('acme', 'red'), replaced);
    assert.deepEqual(await f.repo.passages('acme', ids), [], 'the replaced passages are gone');
  });

  contract("a plan's candidates: every word first, then each word's, ranked by BM25, only the space's", async (f) => {
    await f.addDocument('s', 'a', { name: 'a.md', lang: 'es' });
    await f.addDocument('vecino', 'b', { name: 'b.md', lang: 'es' });
    const ids = await f.repo.replaceDocument('s', 'a', [
      passage(0, 'Kerberos kerberos kerberos: el protocolo kerberos y sus tickets kerberos.'),
      passage(1, 'La caché de credenciales guarda tickets de kerberos.'),
      passage(2, 'Otra caché distinta: la del navegador.'),
      passage(3, 'Nada que ver con la pregunta.', ['Caché']),
    ]);
    await f.repo.replaceDocument('vecino', 'b', [passage(0, 'La caché de kerberos del vecino.')]);
    const rows = await f.repo.match(planOf('s', 'caché kerberos', 3));
    assert.equal(rows[0]!.id, ids[1], 'the only passage with both words comes first');
    assert.deepEqual(new Set(rows.map((r) => r.id)), new Set(ids), "each word's passages fill the list");
    assert.ok(
      rows.every((r) => r.rank < 0),
      "FTS5's rank: the negated BM25",
    );
    const enough = await f.repo.match(planOf('s', 'caché kerberos', 1));
    assert.deepEqual(
      enough.map((r) => r.id),
      [ids[1]],
      'enough rows with every word: no match on each word',
    );
    const one = await f.repo.match(planOf('s', 'kerberos', 5));
    assert.equal(one[0]!.id, ids[0], 'the passage saying the word most often, first');
    assert.ok(one[0]!.rank < one[1]!.rank);
    assert.deepEqual(await f.repo.match(planOf('s', '¿?', 5)), [], 'no content word: no rows');
    assert.deepEqual(await f.repo.match(planOf('nadie', 'kerberos', 5)), []);
  });

  contract('term statistics: the whole index, the space (up to a cap), a length sample', async (f) => {
    await f.addDocument('s', 'a', { name: 'a.md', lang: 'es', passages: 5 });
    await f.addDocument('t', 'b', { name: 'b.md', lang: 'en', passages: 2 });
    await f.repo.replaceDocument(
      's',
      'a',
      Array.from({ length: 5 }, (_, i) =>
        passage(i, `La impresora ${i} imprime en color.`, i === 0 ? ['Impresoras'] : []),
      ),
    );
    await f.repo.replaceDocument('t', 'b', [passage(0, 'Una impresora vieja.'), passage(1, 'Sin nada.')]);
    const [term] = queryTermGroups('impresora', ['es'])[0]!;
    assert.equal(await f.repo.termPassages(term!), 6);
    assert.equal(await f.repo.termPassages('inexistentísimo'), 0);
    assert.equal(await f.repo.spaceTermPassages('s', term!, 1000), 5);
    assert.equal(await f.repo.spaceTermPassages('s', term!, 3), 3, 'counted up to the cap');
    assert.equal(await f.repo.spaceTermPassages('t', term!, 1000), 1);
    const sample = await f.repo.lengthSample('s', 3);
    assert.equal(sample.length, 3);
    assert.deepEqual(sample[0], { text: 'La impresora 0 imprime en color.', headings: ['Impresoras'] });
    assert.deepEqual(await f.repo.lengthSample('s', 3), sample, 'the same sample while nothing changes');
    assert.deepEqual(await f.repo.languagePassages('t'), [{ lang: 'en', passages: 2 }]);

    // A run in progress (and, after its swap, the old version waiting for the purge) is not counted: the space's
    // statistics are those of what a search can return, whenever they are read.
    const run = { space: 's', id: 'a', runId: 9 };
    await f.repo.addHidden(run, [passage(0, 'Otra impresora.'), passage(1, 'Nada.')]);
    assert.equal(await f.repo.spacePassages('s'), 5, 'a run in progress is not counted');
    assert.equal(await f.repo.spaceTermPassages('s', term!, 1000), 5);
    await f.steps.swapIn(run);
    assert.equal(await f.repo.spacePassages('s'), 2, 'the old version waiting for the purge is not counted');
    assert.equal(await f.repo.spaceTermPassages('s', term!, 1000), 1);
    assert.equal(await f.repo.spaceTermPassages('s', term!, 1), 1);
  });

  contract(
    "the length sample spreads over the space's searchable passages in the order they were stored",
    async (f) => {
      // Document ids sort the other way round from the order the documents were stored in: the sample must follow
      // the passages (their ids), not the documents' ids, which are random in the engine.
      await f.addDocument('s', 'zz', { name: 'primero.md', lang: 'es' });
      await f.addDocument('s', 'aa', { name: 'segundo.md', lang: 'es' });
      await f.repo.replaceDocument(
        's',
        'zz',
        Array.from({ length: 6 }, (_, i) => passage(i, `Primero ${i}.`)),
      );
      await f.repo.replaceDocument(
        's',
        'aa',
        Array.from({ length: 6 }, (_, i) => passage(i, `Segundo ${i}.`)),
      );
      await f.repo.addHidden({ space: 's', id: 'aa', runId: 4 }, [passage(0, 'Oculto.')]);
      const texts = async (limit: number) => (await f.repo.lengthSample('s', limit)).map((p) => p.text);
      assert.deepEqual(await texts(4), ['Primero 0.', 'Primero 3.', 'Segundo 0.', 'Segundo 3.'], 'every third');
      assert.deepEqual(await texts(5), ['Primero 0.', 'Primero 3.', 'Segundo 0.', 'Segundo 3.'], 'at most the limit');
      assert.equal((await texts(50)).length, 12, 'a small space whole, without the hidden passage');
      assert.deepEqual(await texts(0), []);
    },
  );

  contract("a run's passages stay hidden until the swap, which hides the old version for the purge", async (f) => {
    await f.addDocument('s', 'd', { name: 'd.md', lang: 'es' });
    const old = await f.repo.replaceDocument('s', 'd', [passage(0, 'El proxy antiguo usa el puerto 80.')]);
    const run = { space: 's', id: 'd', runId: 7 };
    const first = await f.repo.addHidden(run, [passage(0, 'El proxy nuevo usa el puerto 8080.')]);
    const second = await f.repo.addHidden(run, [passage(1, 'El proxy nuevo pide usuario.')]);
    assert.deepEqual(await f.repo.passages('s', [...first, ...second]), [], 'hidden from reads');
    assert.deepEqual(
      (await f.repo.match(planOf('s', 'proxy', 5))).map((r) => r.id),
      old,
      'hidden from matches',
    );
    assert.deepEqual(
      (await f.repo.runPassages(run, -1, 10)).map((p) => [p.id, p.ord, p.text]),
      [
        [first[0], 0, 'El proxy nuevo usa el puerto 8080.'],
        [second[0], 1, 'El proxy nuevo pide usuario.'],
      ],
    );
    assert.deepEqual(
      (await f.repo.runPassages(run, 0, 10)).map((p) => p.ord),
      [1],
    );
    const before = await f.repo.contentVersion();
    assert.equal(await f.steps.swapIn(run), 2);
    assert.ok((await f.repo.contentVersion()) > before);
    assert.deepEqual(
      new Set((await f.repo.match(planOf('s', 'proxy', 5))).map((r) => r.id)),
      new Set([...first, ...second]),
    );
    assert.deepEqual(await f.repo.passages('s', old), [], 'the old version is hidden at once');

    // An abandoned run waits for the purge with the old version.
    const lost = await f.repo.addHidden({ space: 's', id: 'd', runId: 8 }, [passage(0, 'Una ejecución perdida.')]);
    await f.repo.abandonRun({ space: 's', id: 'd', runId: 8 });
    const purged: number[] = [];
    let gone: number[];
    do {
      gone = await f.repo.purge(1, null);
      purged.push(...gone);
    } while (gone.length === 1);
    assert.deepEqual(new Set(purged), new Set([...old, ...lost]));
    assert.equal(await f.repo.spacePassages('s'), 2);
    assert.equal(await f.repo.indexPassages(), 2);
    assert.deepEqual(await f.repo.purge(10, null), []);
  });

  contract('a failed document keeps nothing searchable; a removed one loses its passages at once', async (f) => {
    await f.addDocument('s', 'a', { name: 'a.md', lang: 'es' });
    await f.addDocument('s', 'b', { name: 'b.md', lang: 'es' });
    await f.addDocument('s', 'c', { name: 'c.md', state: 'processing' });
    const a = await f.repo.replaceDocument('s', 'a', [passage(0, 'Factura de marzo.')]);
    await f.repo.addHidden({ space: 's', id: 'a', runId: 3 }, [passage(0, 'Factura de abril.')]);
    const b = await f.repo.replaceDocument('s', 'b', [passage(0, 'Factura de mayo.')]);
    const c = await f.repo.addHidden({ space: 's', id: 'c', runId: 4 }, [passage(0, 'Factura de junio.')]);
    await f.steps.hideDocument('s', 'a');
    assert.deepEqual(
      (await f.repo.match(planOf('s', 'factura', 5))).map((r) => r.id),
      b,
    );
    await f.steps.deleteDocument('s', 'b');
    assert.deepEqual(await f.repo.passageIds('s', 'b'), []);
    assert.deepEqual(await f.repo.match(planOf('s', 'factura', 5)), []);
    // c is still being indexed: its run is kept; a's run went with its document.
    await f.steps.abandonOrphanRuns();
    const purged = await f.repo.purge(10, null);
    assert.equal(purged.length, 2, "a's passage and its run's");
    assert.ok(purged.includes(a[0]!) && !purged.includes(c[0]!));
  });

  contract(
    "the viewer reads a document's searchable passages in order, a page at a time, with OCR marked",
    async (f) => {
      await f.addDocument('s', 'd', { name: 'd.pdf', lang: 'es' });
      await f.addDocument('otra', 'd', { name: 'd.pdf', lang: 'es' });
      const ids = await f.repo.replaceDocument('s', 'd', [
        passage(0, 'Portada del manual.', ['Manual']),
        { ...passage(1, 'Página escaneada leída con OCR.', ['Manual', 'Anexo']), page: 7, ocr: true },
        passage(2, 'Última página.'),
      ]);
      await f.repo.replaceDocument('otra', 'd', [passage(0, 'El documento de otro espacio.')]);
      const all = await f.repo.documentPassages('s', 'd', 0, 10);
      assert.equal(all.total, 3);
      assert.deepEqual(all.passages[1], {
        id: ids[1],
        ord: 1,
        page: 7,
        headings: ['Manual', 'Anexo'],
        text: 'Página escaneada leída con OCR.',
        ocr: true,
      });
      assert.deepEqual(
        all.passages.map((p) => [p.ord, p.ocr]),
        [
          [0, false],
          [1, true],
          [2, false],
        ],
      );
      const second = await f.repo.documentPassages('s', 'd', 2, 2);
      assert.deepEqual([second.total, second.passages.map((p) => p.text)], [3, ['Última página.']]);
      assert.deepEqual(await f.repo.documentPassages('s', 'd', 5, 2), { total: 3, passages: [] });
      assert.deepEqual(await f.repo.documentPassages('s', 'nada', 0, 10), { total: 0, passages: [] });
      assert.deepEqual(
        (await f.repo.documentPassages('otra', 'd', 0, 10)).passages.map((p) => p.text),
        ['El documento de otro espacio.'],
        'each space reads only its own document',
      );
      // A run being indexed is not shown until its swap; then the old version is gone from the viewer at once.
      const run = { space: 's', id: 'd', runId: 9 };
      await f.repo.addHidden(run, [passage(0, 'La versión nueva.')]);
      assert.equal((await f.repo.documentPassages('s', 'd', 0, 10)).total, 3);
      await f.steps.swapIn(run);
      assert.deepEqual(
        (await f.repo.documentPassages('s', 'd', 0, 10)).passages.map((p) => p.text),
        ['La versión nueva.'],
      );
    },
  );

  contract('a space id that looks like FTS5 syntax or SQL is just an id', async (f) => {
    const weird = `x" OR "* AND {body}: a'; DROP TABLE cerebro_passages; --`;
    await f.addDocument(weird, 'a', { name: 'a.md', lang: 'es' });
    await f.addDocument('x', 'b', { name: 'b.md', lang: 'es' });
    const a = await f.repo.replaceDocument(weird, 'a', [passage(0, 'Texto raro sobre impresoras.')]);
    const b = await f.repo.replaceDocument('x', 'b', [passage(0, 'Texto de x sobre impresoras.')]);
    assert.deepEqual(
      (await f.repo.match(planOf(weird, 'impresoras', 5))).map((r) => r.id),
      a,
    );
    assert.deepEqual(
      (await f.repo.match(planOf('x', 'impresoras', 5))).map((r) => r.id),
      b,
    );
  });
}
