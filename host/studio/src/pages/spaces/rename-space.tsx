import { useRef, useState } from 'preact/hooks';
import { api, seg } from '../../api/client.js';
import type { Space } from '../../api/types.js';
import { ErrorNotice } from '../../components/notice.js';
import { useStudio } from '../../state/session.js';

/** «Renombrar» on a space's card: its display name in place (the id stays). */
export function RenameSpace({ space }: { space: Space }) {
  const { reloadSpaces } = useStudio();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(space.nombre);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const inputId = `renombrar-${space.id}`;
  const close = () => {
    setEditing(false);
    setError(null);
    // Back to the button that opened the form, so keyboard users stay where they were.
    requestAnimationFrame(() => opener.current?.focus());
  };
  if (!editing)
    return (
      <button
        ref={opener}
        type="button"
        class="button subtle"
        onClick={() => {
          setName(space.nombre);
          setEditing(true);
        }}
      >
        Renombrar<span class="sr-only"> {space.nombre || space.id}</span>
      </button>
    );
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api('PATCH', `/companies/${seg(space.id)}`, { json: { nombre: name } });
      await reloadSpaces();
      close();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="form rename-space" onSubmit={submit}>
      <label for={inputId}>Nombre nuevo</label>
      {/* biome-ignore lint/a11y/noAutofocus: the form opens on the user's click; the field is what they came for */}
      <input id={inputId} autoFocus maxLength={120} value={name} onInput={(e) => setName(e.currentTarget.value)} />
      <ErrorNotice error={error} title="No se renombró." />
      <div class="row">
        <button type="submit" class="button primary" disabled={busy}>
          {busy ? 'Guardando…' : 'Guardar'}
          <span class="sr-only"> nombre</span>
        </button>
        <button type="button" class="button subtle" onClick={close}>
          Cancelar
        </button>
      </div>
    </form>
  );
}
