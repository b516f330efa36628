import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import iconv from 'iconv-lite';
import { CerebroExtractionError, type ExtractionErrorCode } from '../errors.js';
import { makeDocx, makePdf, makeXlsx, tempDir, type TempDir } from '../testing/fixtures.js';
import { extractFile, formatOf } from './extract.js';
import type { ExtractedDocument, TextBlock } from './types.js';

let dir: TempDir;
before(async () => {
  dir = await tempDir();
});
after(() => dir.cleanup());

async function extract(name: string, data: string | Uint8Array): Promise<ExtractedDocument> {
  return extractFile(await dir.file(name, data), name);
}

async function rejects(name: string, data: string | Uint8Array, code: ExtractionErrorCode): Promise<void> {
  await assert.rejects(extract(name, data), (err: unknown) => {
    assert.ok(err instanceof CerebroExtractionError, `expected CerebroExtractionError, got ${String(err)}`);
    assert.equal(err.code, code);
    assert.ok(err.reason.length > 10 && /[a-záéíóú]/.test(err.reason), 'reason is a sentence');
    return true;
  });
}

const allText = (doc: ExtractedDocument) => doc.blocks.map((b) => b.text).join('\n');
/** A table row block as "header: cell" pairs, for comparing rows with their header. */
const rowPairs = (b: TextBlock) =>
  b.kind === 'table-row' ? b.table!.cells.map((c, i) => `${b.table!.header?.[i] ?? ''}: ${c}`).join('; ') : null;

test('PDF: text per page with page numbers, accents intact and NFC', async () => {
  const doc = await extract(
    'guia.pdf',
    makePdf([['Capítulo uno', 'La configuración de la red.'], ['Página dos: año, niño, 20 €.']]),
  );
  assert.equal(doc.pages, 2);
  assert.ok(doc.blocks.some((b) => b.page === 1 && /configuración de la red/.test(b.text)));
  assert.ok(doc.blocks.some((b) => b.page === 2 && /año, niño, 20 €/.test(b.text)));
  assert.equal(allText(doc), allText(doc).normalize('NFC'));
});

test('PDF: encrypted, corrupt and text-less files fail with their reasons', async () => {
  await rejects('cifrado.pdf', makePdf([['secreto']], { encrypted: true }), 'cifrado');
  await rejects('roto.pdf', '%PDF-1.4\nesto no es un PDF\n', 'corrupto');
  await rejects('falso.pdf', 'no empieza por la cabecera', 'corrupto');
  await rejects('blanco.pdf', makePdf([[]]), 'vacio');
});

test('DOCX: paragraphs keep the Word heading path', async () => {
  const doc = await extract(
    'manual.docx',
    await makeDocx([
      { text: 'Manual de uso', heading: 1 },
      { text: 'Instalación', heading: 2 },
      { text: 'Ejecute el instalador y acepte la licencia.' },
      { text: 'Desinstalación', heading: 2 },
      { text: 'Borre la carpeta del programa.' },
    ]),
  );
  const install = doc.blocks.find((b) => /instalador/.test(b.text));
  assert.deepEqual(install?.headings, ['Manual de uso', 'Instalación']);
  const remove = doc.blocks.find((b) => /Borre/.test(b.text));
  assert.deepEqual(remove?.headings, ['Manual de uso', 'Desinstalación']);
});

test('DOCX: password-protected (OLE container) and corrupt files fail with their reasons', async () => {
  await rejects(
    'protegido.docx',
    Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(512)]),
    'cifrado',
  );
  await rejects('roto.docx', Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(100, 7)]), 'corrupto');
});

test('HTML: a real parser keeps headings, decodes entities, skips scripts and styles', async () => {
  const html = `<!doctype html><html><head><title>Guía</title><style>p{color:red}</style><script>var x = "no indexar";</script></head>
  <body><h1>Guía de red</h1><p>Introducci&oacute;n &amp; conceptos.</p>
  <h2>Proxy</h2><p>Configure el <b>proxy</b> en<br>el archivo.</p><table><tr><td>clave</td><td>valor</td></tr></table>
  <h2>DNS</h2><ul><li>Primer servidor</li><li>Segundo servidor</li></ul><pre>linea 1
linea 2</pre></body></html>`;
  const doc = await extract('guia.html', html);
  assert.equal(doc.title, 'Guía');
  assert.doesNotMatch(allText(doc), /no indexar|color:red/);
  assert.ok(doc.blocks.some((b) => b.text === 'Introducción & conceptos.' && b.headings?.join('/') === 'Guía de red'));
  assert.ok(
    doc.blocks.some((b) => /Configure el proxy en/.test(b.text) && b.headings?.join('/') === 'Guía de red/Proxy'),
  );
  assert.ok(doc.blocks.some((b) => b.text === 'Segundo servidor' && b.headings?.join('/') === 'Guía de red/DNS'));
  assert.ok(doc.blocks.some((b) => b.text === 'linea 1\nlinea 2'));
  assert.ok(doc.blocks.some((b) => b.kind === 'table-row' && b.text === 'clave | valor'));
  assert.ok(doc.blocks.some((b) => b.kind === 'list-item' && b.text === 'Primer servidor'));
  assert.ok(doc.blocks.some((b) => b.kind === 'code' && b.text === 'linea 1\nlinea 2'));
});

test('HTML: table rows keep their header and caption, inline code keeps backticks, boxed notes stay prose', async () => {
  const html = `<h1>Órdenes</h1><p>Use <code>date</code> para ver la hora.</p>
  <table summary="Relación de órdenes de fecha"><thead><tr><th>orden</th><th>acción</th></tr></thead><tbody>
  <tr><td><code>date</code></td><td>muestra la hora del sistema</td></tr>
  <tr><td><code>hwclock -r</code></td><td>lee el reloj del hardware</td></tr></tbody></table>
  <table><caption>Precios</caption><tr><td>Plan</td><td>Precio</td></tr><tr><td>Pro</td><td>25</td></tr></table>
  <table summary="Note"><tr><td><img alt="[Nota]"></td><th>Nota</th></tr><tr><td><p>Una nota en un recuadro.</p><pre># hwclock --systohc</pre></td></tr></table>`;
  const doc = await extract('ordenes.html', html);
  assert.ok(doc.blocks.some((b) => b.text === 'Use `date` para ver la hora.'));
  const rows = doc.blocks.filter((b) => b.kind === 'table-row');
  assert.deepEqual(rows.map(rowPairs).slice(0, 2), [
    'orden: `date`; acción: muestra la hora del sistema',
    'orden: `hwclock -r`; acción: lee el reloj del hardware',
  ]);
  assert.equal(rows[0]!.table!.caption, 'Relación de órdenes de fecha');
  assert.equal(rows[2]!.table!.caption, 'Precios');
  assert.deepEqual(rows[2]!.table!.cells, ['Pro', '25']); // a table without <th>: its first row still names the columns
  assert.deepEqual(rows[2]!.table!.header, ['Plan', 'Precio']);
  assert.ok(doc.blocks.some((b) => b.kind === undefined && b.text === 'Una nota en un recuadro.'));
  assert.ok(doc.blocks.some((b) => b.kind === 'code' && b.text === '# hwclock --systohc'));
  const pre = await extract(
    'pre.html',
    '<pre class="screen">$ cd <span class="emphasis"><em>paquete</em></span><br>$ pager README.Debian\n<div>$ mc</div></pre>',
  );
  assert.deepEqual(
    pre.blocks.map((b) => [b.kind, b.text]),
    [['code', '$ cd paquete\n$ pager README.Debian\n$ mc']],
  );
});

test('DOCX: tables become rows with their header', async () => {
  const doc = await extract(
    'tabla.docx',
    await makeDocx([
      { text: 'Órdenes', heading: 1 },
      {
        table: [
          ['Orden', 'Uso'],
          ['apt install x', 'instala x'],
          ['apt remove x', 'elimina x'],
        ],
      },
    ]),
  );
  assert.deepEqual(doc.blocks.filter((b) => b.kind === 'table-row').map(rowPairs), [
    'Orden: apt install x; Uso: instala x',
    'Orden: apt remove x; Uso: elimina x',
  ]);
});

test('plain text and PDF: command lines and list items are told apart from prose', async () => {
  const text =
    'Para ver la hora, escriba lo siguiente:\n$ date\n$ date -u\n\nPasos:\n1. Abra la terminal.\n2. Escriba la orden.\n';
  const doc = await extract('hora.txt', text);
  assert.deepEqual(
    doc.blocks.map((b) => [b.kind, b.text]),
    [
      ['paragraph', 'Para ver la hora, escriba lo siguiente:'],
      ['code', '$ date\n$ date -u'],
      ['paragraph', 'Pasos:'],
      ['list-item', '1. Abra la terminal.'],
      ['list-item', '2. Escriba la orden.'],
    ],
  );
  const pdf = await extract(
    'hora.pdf',
    makePdf([['Para ver la hora, escriba lo siguiente:', '$ date', 'Eso es todo.']]),
  );
  assert.ok(pdf.blocks.some((b) => b.kind === 'code' && b.text === '$ date' && b.page === 1));
});

test('PDF: a table laid out in aligned columns becomes rows with their header, its cells are not read again as lines', async () => {
  const doc = await extract(
    'tabla.pdf',
    makePdf([
      [
        'Órdenes del reloj del sistema.',
        '',
        ['orden', 'acción'],
        ['date', 'muestra la hora'],
        ['hwclock -r', 'lee el reloj del hardware'],
        '',
        'Fin de la tabla.',
      ],
    ]),
  );
  assert.deepEqual(doc.blocks.filter((b) => b.kind === 'table-row').map(rowPairs), [
    'orden: date; acción: muestra la hora',
    'orden: hwclock -r; acción: lee el reloj del hardware',
  ]);
  assert.ok(
    doc.blocks.every((b) => b.kind === 'table-row' || !/hwclock|muestra la hora/.test(b.text)),
    allText(doc),
  );
  assert.ok(doc.blocks.some((b) => /Fin de la tabla\./.test(b.text) && b.page === 1));
});

test('HTML: navigation bars, tables of contents and breadcrumbs are left out', async () => {
  const html = `<body><div class="navheader"><table><tr><td>Capítulo 1</td><td></td><td><a>Siguiente</a></td></tr></table></div>
  <nav><a>Inicio</a></nav><div class="toc"><dl><dt>2.1. Índice</dt></dl></div><ul class="breadcrumb"><li>Inicio</li></ul>
  <h1>Capítulo 2</h1><div><div><p>Contenido real.</p></div></div><div class="navfooter"><p>Anterior</p></div></body>`;
  const doc = await extract('nav.html', html);
  assert.deepEqual(
    doc.blocks.map((b) => b.text),
    ['Contenido real.'],
  );
});

test('HTML: a declared legacy charset is honoured', async () => {
  const html =
    '<html><head><meta charset="iso-8859-1"></head><body><h1>Canción</h1><p>Año nuevo “feliz”.</p></body></html>';
  const doc = await extract('latin.htm', iconv.encode(html, 'windows-1252'));
  assert.ok(doc.blocks.some((b) => b.text === 'Año nuevo “feliz”.' && b.headings?.[0] === 'Canción'));
});

test('Markdown: headings (ATX and setext), lists, tables and code become blocks with their heading path', async () => {
  const md = `# Guía\n\nIntro con *énfasis* y [enlace](http://x).\n\nRed\n---\n\n- uno\n- dos\n\n| Clave | Valor |\n|---|---|\n| puerto | 8080 |\n\n### Código\n\n\`\`\`\napt-get install\n\`\`\`\n`;
  const doc = await extract('guia.md', md);
  assert.ok(doc.blocks.some((b) => b.text === 'Intro con énfasis y enlace.' && b.headings?.join('/') === 'Guía'));
  assert.ok(doc.blocks.some((b) => b.text === 'dos' && b.headings?.join('/') === 'Guía/Red'));
  assert.ok(doc.blocks.some((b) => b.kind === 'list-item' && b.text === 'uno'));
  assert.ok(doc.blocks.some((b) => rowPairs(b) === 'Clave: puerto; Valor: 8080'));
  assert.ok(
    doc.blocks.some(
      (b) => b.kind === 'code' && b.text === 'apt-get install' && b.headings?.join('/') === 'Guía/Red/Código',
    ),
  );
  const inline = await extract('inline.md', 'Ejecute `apt update` antes.\n');
  assert.equal(inline.blocks[0]!.text, 'Ejecute `apt update` antes.');
});

test('plain text in UTF-16 and Latin-1 is decoded and split into paragraphs', async () => {
  const text = 'Primer párrafo sobre la instalación.\n\nSegundo párrafo: año y niño.\n';
  const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(text, 'utf-16le')]);
  const a = await extract('a.txt', utf16);
  assert.equal(a.encoding, 'utf-16le');
  assert.deepEqual(
    a.blocks.map((b) => b.text.trim()),
    ['Primer párrafo sobre la instalación.', 'Segundo párrafo: año y niño.'],
  );
  const b = await extract('b.txt', iconv.encode(text.repeat(3), 'latin1'));
  assert.equal(b.encoding, 'windows-1252');
  assert.match(allText(b), /año y niño/);
});

test('CSV: the delimiter is detected and each row is a table row under the first row as header', async () => {
  const csv = iconv.encode('Producto;Precio;Descripción\nCafé;3,50;Tostado "natural"\nTé;2;Verde\n', 'windows-1252');
  const doc = await extract('precios.csv', csv);
  assert.deepEqual(doc.blocks.map(rowPairs), [
    'Producto: Café; Precio: 3,50; Descripción: Tostado "natural"',
    'Producto: Té; Precio: 2; Descripción: Verde',
  ]);
});

test('DOCX/XLSX: an archive that would inflate beyond the limit is refused before parsing', async () => {
  // A real DOCX whose central directory declares 512 MB for its main part, as a decompression bomb would.
  const bomb = await makeDocx([{ text: 'hola' }]);
  const central = bomb.lastIndexOf(
    Buffer.from([0x50, 0x4b, 0x01, 0x02]),
    bomb.lastIndexOf(Buffer.from('word/document.xml')),
  );
  assert.ok(central > 0);
  bomb.writeUInt32LE(512 * 1024 * 1024, central + 24);
  await rejects('bomba.docx', bomb, 'demasiado_grande');
  await rejects('truncado.xlsx', (await makeXlsx({ Hoja: [['a']] })).subarray(0, 200), 'corrupto');
});

test('XLSX: every sheet, rows as table rows with their header under the sheet name', async () => {
  const doc = await extract(
    'libro.xlsx',
    await makeXlsx({
      Tarifas: [
        ['Plan', 'Precio'],
        ['Básico', 10],
        ['Pro', 25],
      ],
      Notas: [['Nota'], ['Envío gratuito a partir de 50 €']],
    }),
  );
  assert.deepEqual(
    doc.blocks.map((b) => `${b.headings?.[0]}|${rowPairs(b)}`),
    [
      'Tarifas|Plan: Básico; Precio: 10',
      'Tarifas|Plan: Pro; Precio: 25',
      'Notas|Nota: Envío gratuito a partir de 50 €',
    ],
  );
  await rejects('roto.xlsx', Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(64, 1)]), 'corrupto');
});

test('unsupported and empty files are refused with their reasons', async () => {
  await rejects('programa.exe', 'MZ', 'no_soportado');
  await rejects('antiguo.doc', 'x', 'no_soportado');
  await rejects('vacio.txt', '', 'vacio');
  await rejects('espacios.md', '   \n\n  \t ', 'vacio');
  await rejects('binario.txt', Buffer.from([0x00, 0x01, 0x02, 0x03, 0xff, 0x00, 0x10]), 'no_soportado');
});

test('format detection by extension first, then media type', () => {
  assert.equal(formatOf('Informe.PDF'), 'pdf');
  assert.equal(formatOf('datos', 'text/csv; charset=utf-8'), 'csv');
  assert.equal(formatOf('foto.png', 'image/png'), 'png');
  assert.equal(formatOf('animacion.gif', 'image/gif'), null);
});

test('PDF layout tables: aligned short cells are a table; a table of contents with dot leaders is not', async () => {
  const { layoutTables } = await import('./pdf-tables.js');
  const page =
    'Texto.\n\norden        acción\ndate         muestra la hora\nhwclock      lee el reloj\n\n1.1   Uso típico . . . . . . . .   1\n1.2   Uso avanzado . . . . . . .   2\n1.3   Interfaz . . . . . . . . .   4\n';
  assert.deepEqual(layoutTables(page), [
    {
      header: ['orden', 'acción'],
      rows: [
        ['date', 'muestra la hora'],
        ['hwclock', 'lee el reloj'],
      ],
    },
  ]);
});
