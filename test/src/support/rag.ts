import type { TestClient } from '@cerebro/sdk/testing';

/** A multipart body with the given files (name → content). */
export function filesForm(files: Record<string, string | Buffer>, field = 'archivos'): FormData {
  const form = new FormData();
  for (const [name, content] of Object.entries(files)) form.append(field, new Blob([content]), name);
  return form;
}

/** Polls indexing_status until nothing is pending (bounded). */
export async function waitIndexed(client: TestClient, space: string, timeoutMs = 20_000): Promise<any> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const status = (await client.get(`/rag/${space}/indexing_status`)).body;
    if (status.listo) return status;
    if (Date.now() > until) throw new Error(`indexing not finished: ${JSON.stringify(status)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const GUIDE_MD = `# Instalación

Para instalar Debian descarga la imagen ISO y grábala en una memoria USB. Después arranca el equipo desde la memoria.

# Actualización

Para actualizar el sistema ejecuta apt update y después apt upgrade como administrador.

# Redes

La configuración de red se guarda en el archivo interfaces del directorio de red.
`;
