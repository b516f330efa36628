import { useEffect, useState } from 'preact/hooks';
import { api, seg } from '../api/client.js';
import type { ApiConfig } from '../api/types.js';
import { ErrorNotice, Loading } from '../components/notice.js';
import { PageHeader } from '../components/page.js';
import { SaveBar } from '../components/save-bar.js';
import { useLoad } from '../lib/use-load.js';
import { useSave } from '../lib/use-save.js';
import { useStudio } from '../state/session.js';

interface Draft {
  api_activa: boolean;
  limite: string;
  cuota: string;
  ips: string;
}

const toDraft = (c: ApiConfig): Draft => ({
  api_activa: c.api_activa,
  limite: c.limite_por_minuto === null ? '' : String(c.limite_por_minuto),
  cuota: c.cuota_diaria === null ? '' : String(c.cuota_diaria),
  ips: c.ips_permitidas.join('\n'),
});

/** The API switch, per-minute limit, daily quota and IP list of the space (they apply to keys, not to Studio). */
export function ApiSettingsPage({ space }: { space: string }) {
  const { reloadSpaces } = useStudio();
  const config = useLoad(() => api<ApiConfig>('GET', `/companies/${seg(space)}/api-config`), [space]);
  const [draft, setDraft] = useState<Draft | null>(null);
  const save = useSave();
  useEffect(() => {
    if (config.data) setDraft(toDraft(config.data));
  }, [config.data]);

  const submit = (e: Event) => {
    e.preventDefault();
    if (!draft) return;
    void save.run(async () => {
      const body = {
        api_activa: draft.api_activa,
        limite_por_minuto: draft.limite.trim() === '' ? null : Number(draft.limite),
        cuota_diaria: draft.cuota.trim() === '' ? null : Number(draft.cuota),
        ips_permitidas: draft.ips
          .split(/[\s,]+/)
          .map((s) => s.trim())
          .filter(Boolean),
      };
      config.set(await api<ApiConfig>('PATCH', `/companies/${seg(space)}/api-config`, { json: body }));
      void reloadSpaces();
      return 'Ajustes de la API guardados.';
    });
  };

  return (
    <>
      <PageHeader
        title="Ajustes de la API"
        intro="Se aplican a las claves de este espacio. Studio sigue funcionando aunque apagues la API o limites las IP."
      />
      <ErrorNotice error={config.error} />
      {!draft ? (
        <Loading />
      ) : (
        <form class="card form" onSubmit={submit}>
          <label class="check switch">
            <input
              type="checkbox"
              role="switch"
              checked={draft.api_activa}
              onChange={(e) => setDraft({ ...draft, api_activa: e.currentTarget.checked })}
            />
            API activa {draft.api_activa ? '(las claves funcionan)' : '(las claves reciben 403)'}
          </label>
          <label for="api-limite">Peticiones por minuto</label>
          <input
            id="api-limite"
            type="number"
            min={1}
            inputMode="numeric"
            value={draft.limite}
            placeholder="Sin límite"
            onInput={(e) => setDraft({ ...draft, limite: e.currentTarget.value })}
            aria-describedby="api-limite-ayuda"
          />
          <p id="api-limite-ayuda" class="hint">
            Vacío: sin límite por minuto.
          </p>
          <label for="api-cuota">Cuota diaria de peticiones</label>
          <input
            id="api-cuota"
            type="number"
            min={1}
            inputMode="numeric"
            value={draft.cuota}
            placeholder="Sin cuota"
            onInput={(e) => setDraft({ ...draft, cuota: e.currentTarget.value })}
            aria-describedby="api-cuota-ayuda"
          />
          <p id="api-cuota-ayuda" class="hint">
            Vacío: sin cuota diaria.
          </p>
          <label for="api-ips">IP permitidas</label>
          <textarea
            id="api-ips"
            rows={4}
            value={draft.ips}
            placeholder={'203.0.113.0/24\n2001:db8::1'}
            onInput={(e) => setDraft({ ...draft, ips: e.currentTarget.value })}
            aria-describedby="api-ips-ayuda"
          />
          <p id="api-ips-ayuda" class="hint">
            Una dirección o rango CIDR por línea. Vacío: cualquier IP.
          </p>
          <SaveBar busy={save.busy} error={save.error} saved={save.saved} />
        </form>
      )}
    </>
  );
}
