import { useState } from 'preact/hooks';

/**
 * A destructive action asked twice: the first button turns into «Sí, …» / «No». `target` names the item for screen
 * readers (the visible label stays short in a table row).
 */
export function ConfirmAction({
  action,
  confirm,
  group,
  target,
  onConfirm,
}: {
  /** Visible label of the first button, e.g. «Eliminar». */
  action: string;
  /** Label of the confirming button, e.g. «Sí, eliminar». */
  confirm: string;
  /** Accessible name of the pair, e.g. «Confirmar eliminación de informe.pdf». */
  group: string;
  target: string;
  onConfirm: () => unknown;
}) {
  const [confirming, setConfirming] = useState(false);
  if (!confirming)
    return (
      <button type="button" class="button danger-outline" onClick={() => setConfirming(true)}>
        {action}
        <span class="sr-only"> {target}</span>
      </button>
    );
  return (
    <span class="confirm" role="group" aria-label={group}>
      <button
        type="button"
        class="button danger"
        onClick={() => {
          setConfirming(false);
          void onConfirm();
        }}
      >
        {confirm}
      </button>
      <button type="button" class="button subtle" onClick={() => setConfirming(false)}>
        No
      </button>
    </span>
  );
}
