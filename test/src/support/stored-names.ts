/** Path separators (also look-alikes), NUL and other controls, and bidirectional overrides. */
const UNSAFE = /[/\\\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u2215\u2044\uff0f\uff3c]/;

/**
 * Names of documents an answer says were accepted (any `estado` but `rechazado`) although they could act as a path
 * or hide their real extension. The contract rejects those names with `nombre_no_valido`.
 */
export function unsafeAcceptedNames(body: unknown): string[] {
  const documents = (body as { documentos?: unknown } | null)?.documentos;
  if (!Array.isArray(documents)) return [];
  return documents
    .filter((d): d is { nombre: string; estado: string } => typeof d?.nombre === 'string' && d.estado !== 'rechazado')
    .map((d) => d.nombre)
    .filter((name) => UNSAFE.test(name) || name === '.' || name === '..');
}
