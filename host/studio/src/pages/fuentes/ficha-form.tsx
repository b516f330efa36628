import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { Ficha, Source } from '../../api/module-types.js';
import { Section } from '../../components/page.js';
import { SaveBar } from '../../components/save-bar.js';
import { fromLines } from '../../lib/lines.js';
import { useSave } from '../../lib/use-save.js';

/**
 * A field line is a name, or `name: question` (the question searches better when the documents use other words
 * than the name).
 */
export function fieldsOf(text: string): (string | { nombre: string; pregunta: string })[] {
  return fromLines(text).map((line) => {
    const at = line.indexOf(':');
    if (at <= 0 || !line.slice(at + 1).trim()) return line;
    return { nombre: line.slice(0, at).trim(), pregunta: line.slice(at + 1).trim() };
  });
}

/** `POST /fichas`: a topic, optional fields, optional sources and documents to restrict it to (5 credits). */
export function FichaForm({
  base,
  sources,
  onCreated,
}: {
  base: string;
  sources: Source[];
  onCreated: (ficha: Ficha) => void;
}) {
  const [tema, setTema] = useState('');
  const [campos, setCampos] = useState('');
  const [documentos, setDocumentos] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const save = useSave();
  const submit = (e: Event) => {
    e.preventDefault();
    void save.run(async () => {
      const fields = fieldsOf(campos);
      const docs = fromLines(documentos);
      const ficha = await api<Ficha>('POST', `${base}/fichas`, {
        json: {
          tema: tema.trim(),
          ...(fields.length ? { campos: fields } : {}),
          ...(chosen.length ? { fuentes: chosen } : {}),
          ...(docs.length ? { documentos: docs } : {}),
        },
      });
      setTema('');
      setCampos('');
      setDocumentos('');
      setChosen([]);
      onCreated(ficha);
      return `Ficha «${ficha.tema}» encargada (${ficha.creditos} créditos): se está armando.`;
    });
  };
  const toggle = (id: string, on: boolean) => setChosen((c) => (on ? [...c, id] : c.filter((x) => x !== id)));
  return (
    <Section title="Nueva ficha">
      <form class="form" onSubmit={submit}>
        <label for="ficha-tema">Tema</label>
        <input
          id="ficha-tema"
          required
          maxLength={200}
          placeholder="Plan Básico"
          value={tema}
          onInput={(e) => setTema(e.currentTarget.value)}
        />
        <label for="ficha-campos">Campos (opcional, uno por línea)</label>
        <textarea
          id="ficha-campos"
          rows={3}
          aria-describedby="ficha-campos-ayuda"
          placeholder={'precio\nhorario de soporte: ¿Cuándo atiende el soporte?'}
          value={campos}
          onInput={(e) => setCampos(e.currentTarget.value)}
        />
        <p id="ficha-campos-ayuda" class="hint">
          Un nombre, o «nombre: pregunta». Sin campos, se proponen a partir de los documentos.
        </p>
        {sources.length > 0 && (
          <fieldset>
            <legend>Solo con los documentos de estas fuentes (opcional)</legend>
            <div class="checks">
              {sources.map((s) => (
                <label key={s.id} class="check">
                  <input
                    type="checkbox"
                    checked={chosen.includes(s.id)}
                    onChange={(e) => toggle(s.id, e.currentTarget.checked)}
                  />{' '}
                  {s.nombre}
                </label>
              ))}
            </div>
          </fieldset>
        )}
        <label for="ficha-documentos">Y estos documentos (opcional, un nombre por línea)</label>
        <textarea
          id="ficha-documentos"
          rows={2}
          placeholder="manual.pdf"
          value={documentos}
          onInput={(e) => setDocumentos(e.currentTarget.value)}
        />
        <SaveBar busy={save.busy} error={save.error} saved={save.saved} label="Armar la ficha" />
      </form>
    </Section>
  );
}
