import fc from 'fast-check';
import { hostileFileName, hostileString } from './hostile-input.js';

export interface Part {
  field: string;
  /** Written raw into `filename="..."`, so quotes, CR/LF and NUL reach the parser unchanged. */
  fileName?: string;
  contentType?: string;
  content: Buffer;
}

export interface MultipartBody {
  contentType: string;
  body: Buffer;
}

/** Serialises the parts by hand: FormData would escape exactly the names the harness wants to send. */
export function multipart(parts: Part[], boundary: string, { close = true } = {}): MultipartBody {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.field}"`;
    if (part.fileName !== undefined) head += `; filename="${part.fileName}"`;
    head += '\r\n';
    if (part.contentType) head += `Content-Type: ${part.contentType}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`, 'utf8'), part.content, Buffer.from('\r\n'));
  }
  if (close) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(chunks) };
}

const content = fc.oneof(
  fc
    .constantFrom(
      '# Título\n\nUn texto corto de prueba.\n',
      '',
      'id,nombre\n1,a\n',
      '%PDF-1.4\n%%EOF',
      'RIFF\u0000\u0000\u0000\u0000WAVEfmt ',
    )
    .map((s) => Buffer.from(s, 'utf8')),
  fc.uint8Array({ maxLength: 256 }).map((a) => Buffer.from(a)),
);

const part: fc.Arbitrary<Part> = fc.record(
  {
    field: fc.oneof(
      fc.constantFrom('archivo', 'archivos', 'idioma', 'duracion_max_s', '__proto__', 'constructor', ''),
      hostileString.filter((s) => !/[\r\n"]/.test(s)),
    ),
    fileName: fc.option(hostileFileName, { nil: undefined }),
    contentType: fc.option(
      fc.constantFrom(
        'text/markdown',
        'application/pdf',
        'audio/wav',
        'application/x-msdownload',
        'text/plain; charset=utf-16',
        '__proto__',
      ),
      { nil: undefined },
    ),
    content: fc.oneof(
      content,
      fc.constantFrom('1e20', '-1', 'NaN', '__proto__', 'es', 'zz', '0').map((s) => Buffer.from(s)),
    ),
  },
  { requiredKeys: ['field', 'content'] },
);

/** A multipart body with odd parts; sometimes unterminated, or announced with a boundary it does not use. */
export const hostileMultipart: fc.Arbitrary<MultipartBody> = fc
  .tuple(
    fc.array(part, { maxLength: 4 }),
    fc.constantFrom('frontera', 'x'.repeat(70), 'a"b', '__proto__'),
    fc.constantFrom('ok', 'unterminated', 'wrong-boundary', 'no-boundary'),
  )
  .map(([parts, boundary, shape]) => {
    const built = multipart(parts, boundary, { close: shape !== 'unterminated' });
    if (shape === 'wrong-boundary') return { ...built, contentType: 'multipart/form-data; boundary=otra' };
    if (shape === 'no-boundary') return { ...built, contentType: 'multipart/form-data' };
    return built;
  });
