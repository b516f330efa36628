import { api, apiUrl, seg } from '../../api/client.js';
import type { FichaContent, FichaField, FichaSource } from '../../api/module-types.js';
import { ErrorNotice, Loading } from '../../components/notice.js';
import { CopyButton } from '../../components/copy-button.js';
import { useLoad } from '../../lib/use-load.js';
import { plural } from '../../lib/plural.js';

/** Only web addresses become links; anything else a document carried stays text. */
export const safeHref = (url: string | null): string | null => (url && /^https?:\/\//i.test(url) ? url : null);

/**
 * A ready ficha, read from its JSON variant: each field with its value, the numbered sources it cites and any
 * conflict between documents. Everything is rendered as text nodes (no HTML from the documents reaches the page);
 * the Markdown is shown as plain text to copy.
 */
export function FichaReader({ base, id }: { base: string; id: string }) {
  const path = `${base}/fichas/${seg(id)}/markdown`;
  const content = useLoad(() => api<FichaContent>('GET', path), [path]);
  if (content.error) return <ErrorNotice error={content.error} />;
  if (!content.data) return <Loading label="Cargando la ficha…" />;
  const { campos, fuentes, markdown, campos_propuestos: proposed } = content.data;
  const prefix = `ficha-${id}-fuente`;
  return (
    <article class="ficha" aria-label={`Ficha ${content.data.ficha.tema}`}>
      {proposed && <p class="muted small">Campos propuestos a partir de los documentos.</p>}
      {campos.length === 0 && <p>Los documentos no mencionan el tema: no se pudo proponer ningún campo.</p>}
      <dl class="ficha-fields">
        {campos.map((f) => (
          <FieldEntry key={f.nombre} field={f} prefix={prefix} />
        ))}
      </dl>
      {fuentes.length > 0 && (
        <>
          <h4>Fuentes</h4>
          <ol class="ficha-sources">
            {fuentes.map((s) => (
              <SourceEntry key={s.n} source={s} prefix={prefix} />
            ))}
          </ol>
        </>
      )}
      <details class="ficha-markdown">
        <summary>Ver el Markdown</summary>
        <pre tabIndex={0} aria-label="Markdown de la ficha">
          {markdown}
        </pre>
        <p class="row">
          <CopyButton text={markdown} label="Copiar el Markdown" />
          <a class="button subtle" href={apiUrl(path)} download={`${content.data.ficha.tema}.md`}>
            Descargar .md
          </a>
        </p>
      </details>
    </article>
  );
}

function Citations({ citas, prefix }: { citas: number[]; prefix: string }) {
  return (
    <>
      {citas.map((n) => (
        <a key={n} class="cite" href={`#${prefix}-${n}`} aria-label={`fuente ${n}`}>
          [{n}]
        </a>
      ))}
    </>
  );
}

function FieldEntry({ field, prefix }: { field: FichaField; prefix: string }) {
  return (
    <div class={field.encontrado ? 'ficha-field' : 'ficha-field missing'} data-campo={field.nombre}>
      <dt>{field.nombre}</dt>
      <dd>
        {field.encontrado && field.valor !== null ? (
          <p>
            {field.valor} <Citations citas={field.citas} prefix={prefix} />
          </p>
        ) : (
          <p>
            <strong>Sin datos.</strong> {field.motivo}
          </p>
        )}
        {field.conflicto && (
          <div class="conflict" role="note">
            <p>
              <strong>Conflicto entre documentos:</strong>{' '}
              {plural(field.conflicto.valores.length, 'valor distinto', 'valores distintos')}
            </p>
            <ul>
              {field.conflicto.valores.map((v, i) => (
                <li key={i}>
                  {v.valor} <Citations citas={v.citas} prefix={prefix} />
                </li>
              ))}
            </ul>
          </div>
        )}
        {field.redaccion === 'generativo' && (
          <p class="muted small">Redactado por el modelo a partir de las fuentes citadas.</p>
        )}
      </dd>
    </div>
  );
}

function SourceEntry({ source, prefix }: { source: FichaSource; prefix: string }) {
  const href = safeHref(source.url);
  return (
    <li id={`${prefix}-${source.n}`} value={source.n}>
      {href ? (
        <a href={href} target="_blank" rel="noopener noreferrer">
          {source.documento}
        </a>
      ) : (
        <strong>{source.documento}</strong>
      )}
      {source.seccion && <span class="muted small"> — sección «{source.seccion}»</span>}
      {source.pagina !== null && source.pagina !== undefined && (
        <span class="muted small"> · página {source.pagina}</span>
      )}
      {href && <div class="muted small url-text">{href}</div>}
      {source.extracto && <blockquote class="extract">{source.extracto}</blockquote>}
    </li>
  );
}
