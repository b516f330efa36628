import { useEffect, useRef, useState } from 'preact/hooks';
import { api, seg } from '../../api/client.js';
import type { DocumentPassagePage } from '../../api/types.js';
import { EmptyState, ErrorNotice, Loading } from '../../components/notice.js';
import { formatNumber } from '../../lib/format.js';
import { plural } from '../../lib/plural.js';
import { useLoad } from '../../lib/use-load.js';

/** Passages per page of the viewer. */
const PAGE = 20;

/**
 * «Ver pasajes»: a document's passages as the Cerebro indexed them, in order and a page at a time, each with its
 * sections, its page, and a mark when OCR read its text. The heading takes focus when it opens.
 */
export function DocumentViewer({ space, name, onClose }: { space: string; name: string; onClose: () => void }) {
  const [from, setFrom] = useState(0);
  const page = useLoad(
    () =>
      api<DocumentPassagePage>('GET', `/rag/${seg(space)}/documents/${seg(name)}/pasajes`, {
        query: { limite: PAGE, desde: from },
      }),
    [space, name, from],
    true,
  );
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [name]);
  const data = page.data;
  const last = data ? Math.min(data.desde + data.pasajes.length, data.total) : 0;
  return (
    <section class="card document-viewer" aria-labelledby="visor-titulo" data-testid="visor-pasajes">
      <div class="viewer-head">
        <h2 id="visor-titulo" tabIndex={-1} ref={heading}>
          Pasajes de «{name}»
        </h2>
        <button type="button" class="button subtle" onClick={onClose}>
          Cerrar<span class="sr-only"> los pasajes de {name}</span>
        </button>
      </div>
      <p class="muted">
        El texto tal como lo indexó el Cerebro, en el orden del documento: lo que puede citar al responder.
      </p>
      <ErrorNotice error={page.error} />
      {!data ? (
        !page.error && <Loading />
      ) : data.total === 0 ? (
        <EmptyState title="Este documento no tiene pasajes que se puedan buscar.">
          {data.documento.estado === 'listo'
            ? 'No se encontró texto en él.'
            : 'Aparecerán cuando termine de indexarse; si falló, el motivo está en la lista.'}
        </EmptyState>
      ) : (
        <>
          <p aria-live="polite" class="muted">
            {data.total > PAGE
              ? `Pasajes ${formatNumber(data.desde + 1)}–${formatNumber(last)} de ${formatNumber(data.total)}`
              : plural(data.total, 'pasaje', 'pasajes')}
            {data.documento.paginas ? ` · ${plural(data.documento.paginas, 'página', 'páginas')}` : ''}
          </p>
          {data.pasajes.some((p) => p.ocr) && (
            <p class="muted small">
              <span class="badge warn">OCR</span> texto leído de una imagen (una página escaneada, una foto): puede
              tener errores de lectura.
            </p>
          )}
          <ol class="passages" start={data.desde + 1} aria-label={`Pasajes de ${name}`}>
            {data.pasajes.map((p) => (
              <li key={p.pasaje} class={p.ocr ? 'passage ocr' : 'passage'} data-ocr={p.ocr ? 'si' : 'no'}>
                <p class="passage-meta">
                  <span>Pasaje {formatNumber(p.orden)}</span>
                  {p.pagina !== null && <span>Página {formatNumber(p.pagina)}</span>}
                  {p.secciones.length > 0 && (
                    <span class="passage-sections">
                      <span class="sr-only">Sección: </span>
                      {p.secciones.join(' › ')}
                    </span>
                  )}
                  {p.ocr && (
                    <span class="badge warn" title="Texto leído con OCR: puede tener errores de lectura">
                      OCR<span class="sr-only"> (texto leído de una imagen; puede tener errores de lectura)</span>
                    </span>
                  )}
                </p>
                <pre class="extract">{p.texto}</pre>
              </li>
            ))}
          </ol>
          {data.total > PAGE && (
            <nav class="row pager" aria-label="Páginas de pasajes">
              <button
                type="button"
                class="button"
                disabled={data.desde === 0 || page.loading}
                onClick={() => setFrom(Math.max(0, data.desde - PAGE))}
              >
                Anteriores
              </button>
              <button
                type="button"
                class="button"
                disabled={last >= data.total || page.loading}
                onClick={() => setFrom(data.desde + PAGE)}
              >
                Siguientes
              </button>
            </nav>
          )}
        </>
      )}
    </section>
  );
}
