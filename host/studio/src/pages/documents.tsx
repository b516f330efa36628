import { useEffect, useRef, useState } from 'preact/hooks';
import { api, apiUrl, seg } from '../api/client.js';
import type { DocumentRecord, IndexingStatus, UploadOutcome } from '../api/types.js';
import { uploadForm } from '../api/upload.js';
import { ConfirmAction } from '../components/confirm-action.js';
import { EmptyState, ErrorNotice, Loading, SuccessNotice } from '../components/notice.js';
import { PageHeader, Section } from '../components/page.js';
import { formatBytes, formatDateTime, formatNumber, formatPercent } from '../lib/format.js';
import { plural } from '../lib/plural.js';
import { useCan } from '../state/role.js';
import { useLoad } from '../lib/use-load.js';
import { TableWrap } from '../components/table-wrap.js';
import { SearchTrial } from './search-trial.js';
import { DocumentViewer } from './documents/document-viewer.js';

const PAGE = 200;
const POLL_MS = 1000;

const STATE_LABEL: Record<string, string> = {
  en_cola: 'En cola',
  procesando: 'Indexando',
  listo: 'Listo',
  fallido: 'Falló',
  rechazado: 'Rechazado',
};
const STAGE_LABEL: Record<string, string> = {
  extrayendo: 'leyendo el archivo',
  analizando: 'analizando el texto',
  vectorizando: 'calculando vectores',
  guardando: 'guardando',
};

/** Documents of a space: drag-and-drop upload with progress, live indexing state, download, delete. */
export function DocumentsPage({ space }: { space: string }) {
  const [pages, setPages] = useState(1);
  const list = useLoad(
    async () => {
      // The route gives at most 200 per call: "Mostrar más" asks for the next page and keeps the earlier ones.
      const documentos: DocumentRecord[] = [];
      let total = 0;
      for (let page = 0; page < pages; page++) {
        const body = await api<{ documentos: DocumentRecord[]; total: number }>('GET', `/rag/${seg(space)}/documents`, {
          query: { limite: PAGE, desde: page * PAGE },
        });
        documentos.push(...body.documentos);
        total = body.total;
        if (documentos.length >= total) break;
      }
      return { documentos, total };
    },
    [space, pages],
    true,
  );
  const [notice, setNotice] = useState<string | null>(null);
  /** The document whose passages are open in the viewer. */
  const [viewing, setViewing] = useState<string | null>(null);
  // A `consulta` member reads and downloads; uploading and deleting are not offered to them.
  const canEdit = useCan(space, 'edita');
  const busy = list.data?.documentos.some((d) => d.estado === 'en_cola' || d.estado === 'procesando') ?? false;

  // While something is indexing, follow it through the status route (cheap, one read) and refresh the list.
  useEffect(() => {
    if (!busy) return;
    const timer = setInterval(async () => {
      try {
        const status = await api<IndexingStatus>('GET', `/rag/${seg(space)}/indexing_status`);
        const byId = new Map(status.documentos.map((d) => [d.id, d]));
        // Applied to the list as it is when the answer lands: "Mostrar más" may have loaded more rows meanwhile.
        list.update((current) => ({ ...current, documentos: current.documentos.map((d) => byId.get(d.id) ?? d) }));
      } catch {
        /* the next tick retries; a lost session is handled globally */
      }
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [busy, space, list.update]);

  return (
    <>
      <PageHeader
        title="Documentos"
        intro={
          <>
            Lo que el Cerebro sabe del espacio <code>{space}</code>. Sube PDF, Word, HTML, Markdown, texto, CSV, Excel o
            imágenes.
          </>
        }
      />
      {canEdit && (
        <Uploader
          space={space}
          onUploaded={(n) => {
            setNotice(`${n === 1 ? 'Se subió 1 documento' : `Se subieron ${n} documentos`}; se indexan ahora.`);
            void list.reload();
          }}
        />
      )}
      <SuccessNotice>{notice}</SuccessNotice>
      <Section title="Documentos del espacio">
        <ErrorNotice error={list.error} />
        {list.loading && !list.data ? (
          <Loading />
        ) : !list.data || list.data.documentos.length === 0 ? (
          <EmptyState title="Este espacio todavía no tiene documentos.">
            Arrastra archivos a la zona de arriba para empezar.
          </EmptyState>
        ) : (
          <>
            <p class="muted" aria-live="polite">
              {plural(list.data.total, 'documento', 'documentos')}
              {busy ? ' · indexando…' : ''}
              {list.data.total > list.data.documentos.length && ` (se muestran ${list.data.documentos.length})`}
            </p>
            <TableWrap label="Documentos">
              <table class="table stack">
                <caption class="sr-only">Documentos y su estado de indexación</caption>
                <thead>
                  <tr>
                    <th scope="col">Nombre</th>
                    <th scope="col">Estado</th>
                    <th scope="col" class="num">
                      Tamaño
                    </th>
                    <th scope="col" class="num">
                      Pasajes
                    </th>
                    <th scope="col">Actualizado</th>
                    <th scope="col">
                      <span class="sr-only">Acciones</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.data.documentos.map((d) => (
                    <DocumentRow
                      canEdit={canEdit}
                      key={d.id}
                      space={space}
                      doc={d}
                      onView={() => setViewing(d.nombre)}
                      onDeleted={() => {
                        if (viewing === d.nombre) setViewing(null);
                        setNotice(`Se eliminó «${d.nombre}».`);
                        void list.reload();
                      }}
                    />
                  ))}
                </tbody>
              </table>
            </TableWrap>
            {list.data.total > list.data.documentos.length && (
              <button type="button" class="button" disabled={list.loading} onClick={() => setPages(pages + 1)}>
                Mostrar más documentos
              </button>
            )}
          </>
        )}
      </Section>
      {viewing && <DocumentViewer key={viewing} space={space} name={viewing} onClose={() => setViewing(null)} />}
      {(list.data?.total ?? 0) > 0 && <SearchTrial space={space} />}
    </>
  );
}

function DocumentRow({
  space,
  doc,
  onView,
  onDeleted,
  canEdit,
}: {
  space: string;
  doc: DocumentRecord;
  onView: () => void;
  onDeleted: () => void;
  canEdit: boolean;
}) {
  const [error, setError] = useState<unknown>(null);
  const remove = async () => {
    try {
      await api('DELETE', `/rag/${seg(space)}/documents/${seg(doc.nombre)}`);
      onDeleted();
    } catch (err) {
      setError(err);
    }
  };
  const working = doc.estado === 'en_cola' || doc.estado === 'procesando';
  return (
    <tr data-documento={doc.nombre}>
      <th scope="row" class="doc-name">
        {doc.nombre}
        {doc.etiquetas.length > 0 && (
          <ul class="badges doc-tags" aria-label={`Etiquetas de ${doc.nombre}`}>
            {doc.etiquetas.map((tag) => (
              <li key={tag} class="badge">
                {tag}
              </li>
            ))}
          </ul>
        )}
      </th>
      <td data-label="Estado">
        <span class={`badge state-${doc.estado}`} data-estado={doc.estado}>
          {STATE_LABEL[doc.estado] ?? doc.estado}
        </span>
        {working && (
          <div class="progress-line">
            <progress max={1} value={doc.progreso} aria-label={`Indexación de ${doc.nombre}`} />
            <span class="muted small">
              {formatPercent(doc.progreso)}
              {doc.etapa ? ` · ${STAGE_LABEL[doc.etapa] ?? doc.etapa}` : ''}
            </span>
          </div>
        )}
        {doc.error && <p class="error-text small">{doc.error.motivo}</p>}
      </td>
      <td data-label="Tamaño" class="num">
        {formatBytes(doc.bytes ?? 0)}
      </td>
      <td data-label="Pasajes" class="num">
        {formatNumber(doc.pasajes ?? 0)}
      </td>
      <td data-label="Actualizado">{formatDateTime(doc.actualizado)}</td>
      <td class="actions">
        {(doc.pasajes ?? 0) > 0 && (
          <button type="button" class="button subtle" onClick={onView}>
            Ver pasajes<span class="sr-only"> de {doc.nombre}</span>
          </button>
        )}
        <a class="button subtle" href={apiUrl(`/rag/${seg(space)}/documents/${seg(doc.nombre)}`)} download={doc.nombre}>
          Descargar<span class="sr-only"> {doc.nombre}</span>
        </a>
        {canEdit && (
          <ConfirmAction
            action="Eliminar"
            confirm="Sí, eliminar"
            group={`Confirmar borrado de ${doc.nombre}`}
            target={doc.nombre}
            onConfirm={remove}
          />
        )}
        <ErrorNotice error={error} />
      </td>
    </tr>
  );
}

/** A drop zone that is also a labelled file input, so it works by keyboard and without drag-and-drop. */
function Uploader({ space, onUploaded }: { space: string; onUploaded: (count: number) => void }) {
  const [dragging, setDragging] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [names, setNames] = useState<string[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [rejected, setRejected] = useState<{ nombre: string; motivo: string }[]>([]);
  const input = useRef<HTMLInputElement>(null);
  const cancel = useRef<(() => void) | null>(null);

  const send = async (files: File[]) => {
    if (files.length === 0) return;
    const form = new FormData();
    for (const f of files) form.append('archivos', f, f.name);
    setNames(files.map((f) => f.name));
    setError(null);
    setRejected([]);
    setProgress(0);
    const handle = uploadForm<{ documentos: UploadOutcome[] }>(`/rag/${seg(space)}/load_documents`, form, setProgress);
    cancel.current = handle.abort;
    try {
      const body = await handle.done;
      setRejected(
        body.documentos.flatMap((d) =>
          d.estado === 'rechazado' ? [{ nombre: d.nombre, motivo: d.error.motivo }] : [],
        ),
      );
      onUploaded(body.documentos.filter((d) => d.estado !== 'rechazado').length);
    } catch (err) {
      setError(err);
    } finally {
      setProgress(null);
      cancel.current = null;
      if (input.current) input.current.value = '';
    }
  };

  return (
    <section class="card" aria-labelledby="subir-titulo">
      <h2 id="subir-titulo">Subir documentos</h2>
      <div
        class={dragging ? 'dropzone dragging' : 'dropzone'}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          void send([...(e.dataTransfer?.files ?? [])]);
        }}
      >
        <p>Arrastra aquí uno o varios archivos</p>
        <p class="muted">o</p>
        <input
          id="subir-archivos"
          ref={input}
          type="file"
          multiple
          class="visually-hidden-input"
          disabled={progress !== null}
          onChange={(e) => void send([...(e.currentTarget.files ?? [])])}
        />
        <label for="subir-archivos" class="button primary">
          Elegir archivos
        </label>
      </div>
      {progress !== null && (
        <div class="upload-progress" role="status">
          <label for="progreso-subida">
            Subiendo {names.length === 1 ? names[0] : `${names.length} archivos`}: {formatPercent(progress)}
          </label>
          <progress id="progreso-subida" max={1} value={progress} />
          <button type="button" class="button subtle" onClick={() => cancel.current?.()}>
            Cancelar
          </button>
        </div>
      )}
      <ErrorNotice error={error} title="No se pudo subir." />
      {rejected.length > 0 && (
        <div class="notice notice-error" role="alert">
          <p>Estos archivos no se aceptaron:</p>
          <ul>
            {rejected.map((r) => (
              <li key={r.nombre}>
                <strong>{r.nombre}</strong>: {r.motivo}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
