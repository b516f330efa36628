/**
 * Checks a document's file name as the client sent it. Names are only labels: originals are stored under random
 * ids, so no name can reach the file system. Still, a name that looks like a path or hides characters is refused
 * with a clear reason instead of being silently changed.
 */
export function documentNameProblem(raw: string): string | null {
  const name = raw.normalize('NFC');
  if (name.trim().length === 0) return 'El nombre del archivo está vacío.';
  if (Buffer.byteLength(name) > 255) return 'El nombre del archivo supera 255 bytes.';
  if (name === '.' || name === '..') return 'El nombre del archivo no es válido.';
  // NFKC folds look-alikes such as the fullwidth solidus (U+FF0F) into "/".
  const folded = name.normalize('NFKC');
  if (/[/\\]/.test(folded) || /^[a-zA-Z]:/.test(folded))
    return 'El nombre del archivo no puede contener rutas ("/", "\\" o unidades).';
  if (folded.split(/[/\\]/).some((part) => part === '..')) return 'El nombre del archivo no puede contener "..".';
  // Control characters, and bidirectional overrides that make "gpj.exe" display as "exe.jpg".
  if (/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069\u200e\u200f]/.test(name))
    return 'El nombre del archivo contiene caracteres de control o de dirección del texto.';
  return null;
}

/** The name as stored: Unicode NFC, so "é" typed two ways is one document. */
export const canonicalDocumentName = (raw: string): string => raw.normalize('NFC');
