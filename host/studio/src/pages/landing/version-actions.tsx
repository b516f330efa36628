import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import { fieldIssues } from '../../api/errors.js';
import type { Landing, LandingQuestion } from '../../api/module-types.js';
import { ErrorNotice } from '../../components/notice.js';
import { SaveBar } from '../../components/save-bar.js';
import { useSave } from '../../lib/use-save.js';

const OPTION_LABEL: Record<string, string> = {
  reintentar: 'Reintentar (ya lo corregí en el catálogo)',
  omitir: 'Dejarlo fuera de la página',
  sin_precio: 'Mostrar «Precio a consultar»',
};

/** `faltan_datos`: the version's questions as a form; `completar` sends the answers and the version goes on. */
export function QuestionsForm({
  path,
  questions,
  onDone,
}: {
  path: string;
  questions: LandingQuestion[];
  onDone: (l: Landing) => void;
}) {
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const save = useSave();
  const submit = (e: Event) => {
    e.preventDefault();
    void save.run(async () => {
      const respuestas = Object.fromEntries(
        Object.entries(answers)
          .map(([k, v]) => [k, v.trim()])
          .filter(([, v]) => v !== ''),
      );
      onDone(await api<Landing>('POST', `${path}/completar`, { json: { respuestas } }));
      return 'Respuestas enviadas: la página sigue escribiéndose.';
    });
  };
  const idOf = (q: LandingQuestion) => `pregunta-${q.id.replace(/[^a-z0-9_-]/gi, '-')}`;
  return (
    <form class="form questions" onSubmit={submit} aria-labelledby="preguntas-titulo">
      <h4 id="preguntas-titulo">Faltan datos para terminar la página</h4>
      {questions.map((q) =>
        q.tipo === 'opcion' ? (
          <fieldset key={q.id}>
            <legend>{q.pregunta}</legend>
            {(q.opciones ?? []).map((o) => (
              <label key={o} class="check">
                <input
                  type="radio"
                  name={idOf(q)}
                  value={o}
                  checked={answers[q.id] === o}
                  onChange={() => setAnswers((a) => ({ ...a, [q.id]: o }))}
                />{' '}
                {OPTION_LABEL[o] ?? o}
              </label>
            ))}
          </fieldset>
        ) : (
          <div key={q.id} class="field">
            <label for={idOf(q)}>{q.pregunta}</label>
            <input
              id={idOf(q)}
              required
              type="text"
              inputMode={q.tipo === 'url' ? 'url' : 'email'}
              placeholder={q.tipo === 'url' ? 'https://' : 'correo o teléfono'}
              value={answers[q.id] ?? ''}
              onInput={(e) => {
                const v = e.currentTarget.value;
                setAnswers((a) => ({ ...a, [q.id]: v }));
              }}
            />
          </div>
        ),
      )}
      <SaveBar busy={save.busy} error={save.error} saved={save.saved} label="Enviar las respuestas" />
    </form>
  );
}

/** The instruction set the module understands without a chat endpoint (plugins/landing/README.md). */
const REFINE_HINTS = [
  'titular: <texto>',
  'botón: <texto>',
  'añade <sección> / quita <sección>',
  'orden: hero, precios, cta',
  'mueve precios antes de beneficios',
  'tema: verde (azul, verde, violeta, coral, oscuro, neutro)',
  'más corta / más larga',
];

/** `refinar` (1 credit): a new version from the last ready one. */
export function RefineForm({ path, onDone }: { path: string; onDone: (l: Landing) => void }) {
  const [text, setText] = useState('');
  const save = useSave();
  const submit = (e: Event) => {
    e.preventDefault();
    void save.run(async () => {
      onDone(await api<Landing>('POST', `${path}/refinar`, { json: { instrucciones: text.trim() } }));
      setText('');
      return 'Se está escribiendo una versión nueva.';
    });
  };
  return (
    <form class="form" onSubmit={submit}>
      <label for="refinar-instrucciones">Instrucciones (una por línea o separadas por «;»)</label>
      <textarea
        id="refinar-instrucciones"
        required
        rows={3}
        aria-describedby="refinar-ayuda"
        value={text}
        onInput={(e) => setText(e.currentTarget.value)}
      />
      <div id="refinar-ayuda" class="hint">
        <p>
          Sin modelo de lenguaje se entienden estas (secciones: hero, beneficios, caracteristicas, precios,
          preguntas_frecuentes, cta, contacto):
        </p>
        <ul class="hints">
          {REFINE_HINTS.map((h) => (
            <li key={h}>
              <code>{h}</code>
            </li>
          ))}
        </ul>
      </div>
      <SaveBar busy={save.busy} error={save.error} saved={save.saved} label="Refinar (1 crédito)" />
    </form>
  );
}

/** `validar`: pasted HTML becomes a ready version, or every problem of the 422 is listed. */
export function ValidateForm({ path, onDone }: { path: string; onDone: (l: Landing) => void }) {
  const [html, setHtml] = useState('');
  const save = useSave();
  const issues = fieldIssues(save.error);
  const submit = (e: Event) => {
    e.preventDefault();
    void save.run(async () => {
      onDone(await api<Landing>('POST', `${path}/validar`, { json: { html } }));
      setHtml('');
      return 'HTML aceptado: es la versión lista más reciente.';
    });
  };
  return (
    <form class="form" onSubmit={submit}>
      <label for="validar-html">HTML editado a mano</label>
      <textarea
        id="validar-html"
        required
        rows={6}
        class="code-input"
        spellcheck={false}
        value={html}
        onInput={(e) => setHtml(e.currentTarget.value)}
      />
      {issues.length > 0 ? (
        <div class="notice notice-error" role="alert" data-testid="problemas-html">
          <p>El HTML no se aceptó ({issues.length === 1 ? '1 problema' : `${issues.length} problemas`}):</p>
          <ul>
            {issues.map((i, n) => (
              <li key={n}>{i.msg}</li>
            ))}
          </ul>
        </div>
      ) : (
        <ErrorNotice error={save.error} title="No se aceptó." />
      )}
      <SaveBar busy={save.busy} error={null} saved={save.saved} label="Validar y guardar" />
    </form>
  );
}
