import type { Source } from '../api/types.js';

/** An answer's sources: the cited ones marked, each opening to the passage it came from. */
export function Sources({ sources }: { sources: Source[] }) {
  return (
    <div class="sources" data-testid="fuentes">
      <h2 class="sources-title">Fuentes</h2>
      <ol>
        {sources.map((s) => (
          <li key={`${s.documento}-${s.pasaje}`} class={s.citada ? 'cited' : ''}>
            <details>
              <summary>
                <strong>
                  [{s.n}] {s.documento}
                </strong>
                {s.seccion && <> · {s.seccion}</>}
                {s.pagina !== null && s.pagina !== undefined && <> · pág. {s.pagina}</>}
                {!s.citada && <span class="muted"> · consultada</span>}
              </summary>
              <pre class="extract">{s.extracto}</pre>
            </details>
          </li>
        ))}
      </ol>
    </div>
  );
}
