import { api, seg } from '../api/client.js';
import { ErrorNotice } from '../components/notice.js';
import { useLoad } from '../lib/use-load.js';
import { useSave } from '../lib/use-save.js';

/**
 * The sales module's `marca_activa` (off by default): the brand reaches conversations only with it on, so the brand
 * editor shows it beside the brand's own switch.
 */
export function SalesBrandSwitch({ space }: { space: string }) {
  const path = `/mod/ventas/${seg(space)}/leads-config`;
  const config = useLoad(() => api<{ marca_activa: boolean }>('GET', path), [path]);
  const save = useSave();
  if (!config.data) return <ErrorNotice error={config.error} />;
  // The switch moves at once (a switch that lags behind the click reads as broken) and moves back if refused.
  const toggle = (on: boolean) =>
    void save.run(async () => {
      const before = config.data!;
      config.set({ ...before, marca_activa: on });
      try {
        config.set(await api<{ marca_activa: boolean }>('PATCH', path, { json: { marca_activa: on } }));
      } catch (err) {
        config.set(before);
        throw err;
      }
      return on ? 'El agente de ventas usa la marca.' : 'El agente de ventas usa su propia descripción.';
    });
  return (
    <div class="sub-switch">
      <label class="check switch">
        <input
          type="checkbox"
          role="switch"
          checked={config.data.marca_activa}
          disabled={save.busy}
          onChange={(e) => toggle(e.currentTarget.checked)}
        />
        Usar la marca en el agente de ventas
      </label>
      <ErrorNotice error={save.error} />
      <p class="hint" role="status">
        {save.saved ??
          (config.data.marca_activa
            ? 'Activado en ventas.'
            : 'Desactivado en ventas: el agente usa su propia descripción.')}
      </p>
    </div>
  );
}
