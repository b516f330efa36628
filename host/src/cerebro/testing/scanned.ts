// Scanned documents for OCR tests, made here from text: a text PDF page rendered to PNG or JPEG with pdftoppm, a
// TIFF converted from it with ffmpeg, and an image-only PDF (pages that are just a JPEG, no text layer) written by
// hand around those JPEGs.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { imagePages } from '../extract/image-size.js';
import { makePdf } from './fixtures.js';

const exec = promisify(execFile);

async function inTemp<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'cerebro-scan-'));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** One page of text (Helvetica 12 pt) as an image at `dpi` (PNG grey, JPEG in colour), no text layer anywhere. */
export function scannedPage(lines: string[], format: 'png' | 'jpeg', dpi = 150): Promise<Buffer> {
  return inTemp(async (dir) => {
    await writeFile(join(dir, 'page.pdf'), makePdf([lines]));
    await exec('pdftoppm', [
      '-r',
      String(dpi),
      ...(format === 'png' ? ['-gray'] : []),
      '-singlefile',
      `-${format}`,
      join(dir, 'page.pdf'),
      join(dir, 'page'),
    ]);
    return readFile(join(dir, `page.${format === 'png' ? 'png' : 'jpg'}`));
  });
}

/** A PNG converted to TIFF by ffmpeg (several PNGs: one multi-page TIFF is not needed by the tests). */
export function tiffOf(png: Buffer): Promise<Buffer> {
  return inTemp(async (dir) => {
    await writeFile(join(dir, 'in.png'), png);
    await exec('ffmpeg', ['-loglevel', 'error', '-i', join(dir, 'in.png'), join(dir, 'out.tiff')]);
    return readFile(join(dir, 'out.tiff'));
  });
}

/** A PDF whose pages are the given colour JPEGs (as `scannedPage` makes them) drawn full-page (DCTDecode image XObjects), or text when a page is a string[]. */
export function imageOnlyPdf(pages: (Buffer | string[])[]): Buffer {
  const parts: (string | Buffer)[] = [];
  const objects: (string | Buffer[])[] = [];
  const pageIds: number[] = [];
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
  for (const page of pages) {
    const pageId = objects.length;
    pageIds.push(pageId);
    const contentId = pageId + 1;
    if (Array.isArray(page)) {
      const stream = `BT /F1 12 Tf 14 TL 72 720 Td ${page.map((l) => `(${l}) Tj T*`).join(' ')} ET`;
      objects[pageId] =
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${contentId} 0 R >>`;
      objects[contentId] = `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`;
      continue;
    }
    const [size] = imagePages(page, 1)!;
    const imageId = pageId + 2;
    const draw = 'q 612 0 0 792 0 0 cm /Im0 Do Q';
    objects[pageId] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im0 ${imageId} 0 R >> >> /Contents ${contentId} 0 R >>`;
    objects[contentId] = `<< /Length ${draw.length} >>\nstream\n${draw}\nendstream`;
    objects[imageId] = [
      Buffer.from(
        `<< /Type /XObject /Subtype /Image /Width ${size!.width} /Height ${size!.height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode /Length ${page.length} >>\nstream\n`,
        'latin1',
      ),
      page,
      Buffer.from('\nendstream', 'latin1'),
    ];
  }
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`;
  let length = 0;
  const push = (p: string | Buffer) => {
    parts.push(p);
    length += typeof p === 'string' ? Buffer.byteLength(p, 'latin1') : p.length;
  };
  push('%PDF-1.4\n');
  const offsets: number[] = [];
  for (let i = 1; i < objects.length; i++) {
    offsets[i] = length;
    const object = objects[i]!;
    push(`${i} 0 obj\n`);
    if (typeof object === 'string') push(object);
    else object.forEach(push);
    push('\nendobj\n');
  }
  const xref = length;
  push(`xref\n0 ${objects.length}\n0000000000 65535 f \n`);
  for (let i = 1; i < objects.length; i++) push(`${String(offsets[i]).padStart(10, '0')} 00000 n \n`);
  push(`trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : p)));
}
