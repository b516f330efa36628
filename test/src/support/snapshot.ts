import type { TestClient } from '@cerebro/sdk/testing';

/** Fields that change by merely being called (usage counters) or by background work (indexing progress). */
const VOLATILE = new Set([
  'llamadas',
  'por_ruta',
  'ultimo_uso',
  'progreso',
  'etapa',
  'actualizado',
  'estado_indexacion',
]);

function stripVolatile(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripVolatile);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !VOLATILE.has(k))
      .map(([k, v]) => [k, stripVolatile(v)]),
  );
}

/** What a read says about stored data: documents by name, content and version; the pool by its balance only. */
function normalise(path: string, body: any): unknown {
  if (/\/documents$/.test(path) && Array.isArray(body?.documentos)) {
    return body.documentos.map((d: { nombre: string; sha256: string; version: number }) => [
      d.nombre,
      d.sha256,
      d.version,
    ]);
  }
  // A refused question still reserves and refunds its credit: the movements change, the balance must not.
  if (/\/bolsa$/.test(path)) return { saldo: body?.saldo };
  return stripVolatile(body);
}

export type Snapshot = Record<string, { status: number; body: unknown }>;

/** Reads every path with the client and keeps the normalised answers, to compare before and after a write. */
export async function snapshot(client: TestClient, paths: readonly string[]): Promise<Snapshot> {
  const answers = await Promise.all(paths.map(async (path) => [path, await client.get(path)] as const));
  return Object.fromEntries(
    answers.map(([path, res]) => [path, { status: res.status, body: normalise(path, res.body) }]),
  );
}
