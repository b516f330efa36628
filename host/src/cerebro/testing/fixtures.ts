// Builders of real test documents (PDF, DOCX, XLSX) and a migrated temporary database, shared by the tests.
import Database from 'better-sqlite3';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import JSZip from 'jszip';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import type { SqliteDatabase } from '../../storage/database.js';
import { CEREBRO_MIGRATION } from '../schema.js';
import { CEREBRO_HIDDEN_PASSAGES_MIGRATION } from '../hidden-passages-schema.js';
import { CEREBRO_FAIR_QUEUE_MIGRATION } from '../fair-queue-schema.js';
import { CEREBRO_JOB_LEASES_MIGRATION } from '../job-leases-schema.js';
import { CEREBRO_PASSAGE_OCR_SQL } from '../passage-ocr-schema.js';

export interface TempDir {
  path: string;
  file(name: string, data: string | Uint8Array): Promise<string>;
  cleanup(): Promise<void>;
}

export async function tempDir(): Promise<TempDir> {
  const path = await mkdtemp(join(tmpdir(), 'cerebro-test-'));
  return {
    path,
    async file(name, data) {
      const p = join(path, name);
      await writeFile(p, data);
      return p;
    },
    cleanup: () => rm(path, { recursive: true, force: true }),
  };
}

/** An in-memory database with the Cerebro migrations applied, as the host will have it. */
export function migratedDb(file = ':memory:'): SqliteDatabase {
  const db = new Database(file);
  db.pragma('foreign_keys = ON');
  db.exec(CEREBRO_MIGRATION.sql);
  db.exec(CEREBRO_HIDDEN_PASSAGES_MIGRATION.sql);
  db.exec(CEREBRO_FAIR_QUEUE_MIGRATION.sql);
  db.exec(CEREBRO_JOB_LEASES_MIGRATION.sql);
  db.exec(CEREBRO_PASSAGE_OCR_SQL);
  return db;
}

/** A PDF string literal in WinAnsi (windows-1252) bytes, with the three special characters escaped. */
const pdfString = (s: string) => `(${s.replace(/[\\()]/g, (c) => `\\${c}`)})`;

/**
 * A minimal but valid PDF: one page per entry, each line (or table row of cells) drawn with Helvetica in WinAnsi
 * encoding (so Spanish accents survive). With `encrypted`, a Standard security handler whose password check cannot pass is declared.
 * With `unknownOperators`, each page's content ends with that many bogus operators: poppler prints a
 * "Syntax Error" line for each one, as it does for a malformed PDF, yet still extracts the text.
 */
export function makePdf(
  pages: (string | string[])[][],
  options: { encrypted?: boolean; unknownOperators?: number } = {},
): Buffer {
  const objects: string[] = [];
  const pageIds = pages.map((_, i) => 4 + i * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  pages.forEach((lines, i) => {
    // A line given as an array is a table row: its cells start 160 points apart.
    const stream = `BT /F1 12 Tf ${lines
      .map((l, j) =>
        (Array.isArray(l) ? l : [l])
          .map((cell, k) => `1 0 0 1 ${72 + 160 * k} ${720 - 14 * j} Tm ${pdfString(cell)} Tj`)
          .join(' '),
      )
      .join(' ')} ET${' zz'.repeat(options.unknownOperators ?? 0)}`;
    objects[pageIds[i]!] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageIds[i]! + 1} 0 R >>`;
    objects[pageIds[i]! + 1] = `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`;
  });
  let encryptRef = '';
  if (options.encrypted) {
    const id = objects.length;
    objects[id] = `<< /Filter /Standard /V 1 /R 2 /O <${'11'.repeat(32)}> /U <${'22'.repeat(32)}> /P -44 >>`;
    encryptRef = ` /Encrypt ${id} 0 R /ID [<${'ab'.repeat(16)}> <${'ab'.repeat(16)}>]`;
  }
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let i = 1; i < objects.length; i++) {
    offsets[i] = Buffer.byteLength(body, 'latin1');
    body += `${i} 0 obj\n${objects[i]}\nendobj\n`;
  }
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let i = 1; i < objects.length; i++) body += `${String(offsets[i]).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length} /Root 1 0 R${encryptRef} >>\nstartxref\n${xref}\n%%EOF\n`;
  return iconv.encode(body, 'windows-1252');
}

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** One DOCX table: rows of cell texts, the first row marked as the header row that Word repeats on each page. */
export interface DocxTable {
  table: string[][];
}

const docxTable = ({ table }: DocxTable) =>
  `<w:tbl>${table
    .map(
      (row, i) =>
        `<w:tr>${i === 0 ? '<w:trPr><w:tblHeader/></w:trPr>' : ''}${row
          .map((c) => `<w:tc><w:p><w:r><w:t xml:space="preserve">${xmlEscape(c)}</w:t></w:r></w:p></w:tc>`)
          .join('')}</w:tr>`,
    )
    .join('')}</w:tbl>`;

/** A DOCX whose paragraphs use Word's built-in heading styles where `heading` is set, with tables where given. */
export async function makeDocx(paragraphs: ({ text: string; heading?: 1 | 2 | 3 } | DocxTable)[]): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>
</Types>`,
  );
  zip.file(
    '_rels/.rels',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>
</Relationships>`,
  );
  zip.file(
    'word/_rels/document.xml.rels',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>
</Relationships>`,
  );
  const styles = [1, 2, 3]
    .map((n) => `<w:style w:type="paragraph" w:styleId="Heading${n}"><w:name w:val="heading ${n}"/></w:style>`)
    .join('');
  zip.file(
    'word/styles.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">${styles}</w:styles>`,
  );
  const body = paragraphs
    .map((p) =>
      'table' in p
        ? docxTable(p)
        : `<w:p>${p.heading ? `<w:pPr><w:pStyle w:val="Heading${p.heading}"/></w:pPr>` : ''}<w:r><w:t xml:space="preserve">${xmlEscape(p.text)}</w:t></w:r></w:p>`,
    )
    .join('');
  zip.file(
    'word/document.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
  );
  return zip.generateAsync({ type: 'nodebuffer' });
}

export async function makeXlsx(sheets: Record<string, (string | number | Date)[][]>): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) workbook.addWorksheet(name).addRows(rows);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/**
 * A ZIP archive of deflated entries. `declaredSize` overrides what the local header and the central directory say
 * the entry inflates to: a decompression bomb declares a few bytes and inflates to many megabytes.
 */
export function makeZip(entries: { name: string; content: Buffer; declaredSize?: number }[]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const data = deflateRawSync(entry.content);
    const sizes = Buffer.alloc(12);
    sizes.writeUInt32LE(crc32(entry.content), 0);
    sizes.writeUInt32LE(data.length, 4);
    sizes.writeUInt32LE(entry.declaredSize ?? entry.content.length, 8);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(8, 8); // deflate
    sizes.copy(local, 14);
    local.writeUInt16LE(name.length, 26);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(8, 10);
    sizes.copy(header, 16);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt32LE(offset, 42);
    parts.push(local, name, data);
    central.push(header, name);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}

/** A DOCX whose main part declares `declaredSize` bytes and really inflates to `realSize` (repeated text). */
export function makeDocxBomb(realSize: number, declaredSize = 1692): Buffer {
  const head =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>';
  const tail = '</w:t></w:r></w:p></w:body></w:document>';
  const document = Buffer.alloc(realSize, 'bomba ');
  document.write(head, 0);
  document.write(tail, realSize - tail.length);
  return makeZip([
    {
      name: '[Content_Types].xml',
      content: Buffer.from(
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      ),
    },
    {
      name: '_rels/.rels',
      content: Buffer.from(
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
      ),
    },
    { name: 'word/document.xml', content: document, declaredSize },
  ]);
}
