import { useState } from 'preact/hooks';
import { api, seg } from '../api/client.js';
import type { SearchHit } from '../api/types.js';
import { EmptyState, ErrorNotice } from '../components/notice.js';
import { Section } from '../components/page.js';
import { formatNumber } from '../lib/format.js';
import { plural } from '../lib/plural.js';

const LIMITS = [5, 10, 20];

/**
 * "Probar búsqueda": the passages a question would be answered from, ranked as the engine ranks them, without
 * composing an answer (`POST /rag/{espacio}/buscar` costs no credits and stores nothing). For owners checking what
 * their documents hold before paying for answers; each passage's text is shown as text, never as HTML.
 */
export function SearchTrial({ space }: { space: string }) {
  const [question, setQuestion] = useState('');
  const [limit, setLimit] = useState(5);
  const [result, setResult] = useState<{ pregunta: string; pasajes: SearchHit[]; ms: number } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [running, setRunning] = useState(false);

  const search = async (e: Event) => {
    e.preventDefault();
    const pregunta = question.trim();
    if (!pregunta || running) return;
    setRunning(true);
    setError(null);
    try {
      const body = await api<{ pasajes: SearchHit[]; ms: number }>('POST', `/rag/${seg(space)}/buscar`, {
        json: { pregunta, limite: limit },
      });
      setResult({ pregunta, ...body });
    } catch (err) {
      setError(err);
    } finally {
      setRunning(false);
    }
  };

  return (
    <Section title="Probar búsqueda">
      <p class="muted">
        Escribe una pregunta para ver qué pasajes de los documentos usaría el Cerebro para responderla, en su orden. No
        redacta respuesta ni gasta créditos.
      </p>
      <form class="form" onSubmit={search}>
        <label for="prueba-pregunta">Pregunta de prueba</label>
        <input
          id="prueba-pregunta"
          type="search"
          maxLength={2000}
          required
          value={question}
          onInput={(e) => setQuestion(e.currentTarget.value)}
        />
        <div class="row">
          <label for="prueba-limite">Pasajes</label>
          <select id="prueba-limite" value={limit} onChange={(e) => setLimit(Number(e.currentTarget.value))}>
            {LIMITS.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
          <button type="submit" class="button" disabled={running}>
            {running ? 'Buscando…' : 'Buscar pasajes'}
          </button>
        </div>
      </form>
      <ErrorNotice error={error} />
      {result && (
        <div aria-live="polite">
          {result.pasajes.length === 0 ? (
            <EmptyState title="Ningún pasaje responde a esa pregunta.">
              Prueba con otras palabras o sube el documento que la responda.
            </EmptyState>
          ) : (
            <>
              <p class="muted">
                {plural(result.pasajes.length, 'pasaje', 'pasajes')} para «{result.pregunta}», en{' '}
                {formatNumber(result.ms)} ms.
              </p>
              <ol class="sources" aria-label="Pasajes encontrados" data-testid="pasajes">
                {result.pasajes.map((p) => (
                  <li key={`${p.documento_id}-${p.pasaje}`}>
                    <details open={p.posicion === 1}>
                      <summary>
                        <strong>{p.documento}</strong>
                        {p.seccion && <> · {p.seccion}</>}
                        {p.pagina !== null && p.pagina !== undefined && <> · pág. {p.pagina}</>}
                        <span class="muted"> · puntuación {formatNumber(p.puntuacion)}</span>
                      </summary>
                      <pre class="extract">{p.texto}</pre>
                    </details>
                  </li>
                ))}
              </ol>
            </>
          )}
        </div>
      )}
    </Section>
  );
}
