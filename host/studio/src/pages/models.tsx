import { api } from '../api/client.js';
import type { ModelsView } from '../api/types.js';
import { ErrorNotice, Loading } from '../components/notice.js';
import { PageHeader, Section } from '../components/page.js';
import { TableWrap } from '../components/table-wrap.js';
import { formatDateTime } from '../lib/format.js';
import { useLoad } from '../lib/use-load.js';

type Model = ModelsView['embeddings'];

const ROLE: Record<'embeddings' | 'reordenacion' | 'respuestas', string> = {
  embeddings: 'Búsqueda por significado (embeddings)',
  reordenacion: 'Reordenación de pasajes',
  respuestas: 'Redacción de respuestas (modelo de lenguaje)',
};

const STATE: Record<Model['estado'], { label: string; tone: string }> = {
  activo: { label: 'Activo', tone: 'ok' },
  responde: { label: 'Responde', tone: 'ok' },
  fallando: { label: 'Fallando', tone: 'warn' },
  no_cargado: { label: 'No se pudo cargar', tone: 'bad' },
  no_responde: { label: 'No responde', tone: 'bad' },
  rechaza_la_clave: { label: 'Rechaza la clave', tone: 'bad' },
  sin_configurar: { label: 'Sin configurar', tone: '' },
};

const KIND: Record<string, string> = { local: 'En el servidor', servicio: 'Servicio externo' };

/**
 * The models the server uses (`GET /api/modelos`): which one does what, where it runs and whether it answers now.
 * What the operator configures is not changed here (it is the server's configuration, not an owner's).
 */
export function ModelsPage() {
  const models = useLoad(() => api<ModelsView>('GET', '/modelos'), []);
  return (
    <>
      <PageHeader
        title="Modelos"
        intro="Los modelos que usa este servidor para buscar en los documentos y redactar las respuestas, y si responden ahora. Los configura quien administra el servidor."
      >
        <button type="button" class="button subtle" disabled={models.loading} onClick={() => void models.reload()}>
          Comprobar de nuevo
        </button>
      </PageHeader>
      <Section title="Modelos del servidor">
        <ErrorNotice error={models.error} />
        {!models.data ? (
          <Loading />
        ) : (
          <>
            <TableWrap label="Modelos">
              <table class="table stack">
                <caption class="sr-only">Modelos del servidor y su estado</caption>
                <thead>
                  <tr>
                    <th scope="col">Función</th>
                    <th scope="col">Modelo</th>
                    <th scope="col">Dónde</th>
                    <th scope="col">Estado</th>
                  </tr>
                </thead>
                <tbody>
                  {(Object.keys(ROLE) as (keyof typeof ROLE)[]).map((role) => {
                    const m = models.data![role];
                    const state = STATE[m.estado];
                    return (
                      <tr key={role} data-modelo={role}>
                        <th scope="row">{ROLE[role]}</th>
                        <td data-label="Modelo">{m.modelo ?? '—'}</td>
                        <td data-label="Dónde">
                          {m.tipo ? KIND[m.tipo] : '—'}
                          {m.direccion && (
                            <>
                              <br />
                              <code class="small">{m.direccion}</code>
                            </>
                          )}
                        </td>
                        <td data-label="Estado">
                          {/* One block: on a phone the cell's label sits beside it, not beside each of its parts. */}
                          <div>
                            <span class={`badge ${state.tone}`}>{state.label}</span>
                            <p class="small muted">{m.detalle}</p>
                          </div>
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </TableWrap>
            <p class="muted small">Comprobado el {formatDateTime(models.data.comprobado)}.</p>
          </>
        )}
      </Section>
    </>
  );
}
