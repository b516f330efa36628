import { ErrorNotice, SuccessNotice } from './notice.js';

/** The submit button of a settings form with what happened to the last save. */
export function SaveBar({
  busy,
  error,
  saved,
  label = 'Guardar cambios',
}: {
  busy: boolean;
  error: unknown;
  saved: string | null;
  label?: string;
}) {
  return (
    <div class="save-bar">
      <ErrorNotice error={error} title="No se guardó." />
      <SuccessNotice>{saved}</SuccessNotice>
      <button type="submit" class="button primary" disabled={busy}>
        {busy ? 'Guardando…' : label}
      </button>
    </div>
  );
}
