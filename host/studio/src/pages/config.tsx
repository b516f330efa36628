import { useEffect, useState } from 'preact/hooks';
import { api, seg } from '../api/client.js';
import type { CerebroConfig } from '../api/types.js';
import { ErrorNotice, Loading, SuccessNotice } from '../components/notice.js';
import { PageHeader, Section } from '../components/page.js';
import { SaveBar } from '../components/save-bar.js';
import { useCan } from '../state/role.js';
import { useLoad } from '../lib/use-load.js';
import { useSave } from '../lib/use-save.js';

/** How the Cerebro answers in the space (GET/PATCH /rag/{espacio}/config), and emptying its answer cache. */
export function ConfigPage({ space }: { space: string }) {
  const config = useLoad(() => api<CerebroConfig>('GET', `/rag/${seg(space)}/config`), [space]);
  const [draft, setDraft] = useState<CerebroConfig | null>(null);
  const save = useSave();
  const cache = useSave();
  // A `consulta` member reads the configuration; saving and emptying the cache are not offered to them.
  const canEdit = useCan(space, 'edita');
  useEffect(() => {
    if (config.data) setDraft(config.data);
  }, [config.data]);
  const set = <K extends keyof CerebroConfig>(key: K, value: CerebroConfig[K]) =>
    setDraft((d) => (d ? { ...d, [key]: value } : d));

  const submit = (e: Event) => {
    e.preventDefault();
    if (!draft) return;
    void save.run(async () => {
      config.set(await api<CerebroConfig>('PATCH', `/rag/${seg(space)}/config`, { json: draft }));
      return 'Configuración guardada. La caché de respuestas se vació.';
    });
  };

  return (
    <>
      <PageHeader title="Configuración del Cerebro" intro="Cómo responde el Cerebro en este espacio." />
      <ErrorNotice error={config.error} />
      {!draft ? (
        <Loading />
      ) : (
        <form class="card form" onSubmit={submit}>
          <fieldset class="bare" disabled={!canEdit}>
            <label for="cfg-longitud">Longitud de las respuestas</label>
            <select
              id="cfg-longitud"
              value={draft.longitud}
              onChange={(e) => set('longitud', e.currentTarget.value as CerebroConfig['longitud'])}
            >
              <option value="corta">Corta (2 frases)</option>
              <option value="media">Media (3 frases)</option>
              <option value="larga">Larga (6 frases)</option>
            </select>
            <label for="cfg-idioma">Idioma</label>
            <input
              id="cfg-idioma"
              value={draft.idioma}
              maxLength={5}
              onInput={(e) => set('idioma', e.currentTarget.value)}
              aria-describedby="cfg-idioma-ayuda"
            />
            <p id="cfg-idioma-ayuda" class="hint">
              Código de dos letras, por ejemplo «es» o «en».
            </p>
            <label for="cfg-pasajes">Pasajes consultados (1 a 20)</label>
            <input
              id="cfg-pasajes"
              type="number"
              min={1}
              max={20}
              value={draft.pasajes}
              onInput={(e) => set('pasajes', Number(e.currentTarget.value))}
            />
            <label for="cfg-relevancia">Relevancia mínima (0 a 1)</label>
            <input
              id="cfg-relevancia"
              type="number"
              min={0}
              max={1}
              // Any value: the default comes from the calibrated decision model (0.625 today), which a step of 0.01
              // would make the browser refuse, and with it the whole form.
              step="any"
              value={draft.relevancia_minima}
              onInput={(e) => set('relevancia_minima', Number(e.currentTarget.value))}
              aria-describedby="cfg-relevancia-ayuda"
            />
            <p id="cfg-relevancia-ayuda" class="hint">
              Más alta: responde solo cuando el pasaje encaja mucho; más baja: responde más a menudo.
            </p>
            <label for="cfg-sin">Texto cuando no hay respuesta</label>
            <input
              id="cfg-sin"
              value={draft.texto_sin_respuesta}
              onInput={(e) => set('texto_sin_respuesta', e.currentTarget.value)}
            />
            <label for="cfg-instrucciones">Instrucciones para el modelo generativo</label>
            <textarea
              id="cfg-instrucciones"
              rows={4}
              maxLength={4000}
              value={draft.instrucciones}
              onInput={(e) => set('instrucciones', e.currentTarget.value)}
              aria-describedby="cfg-instrucciones-ayuda"
            />
            <p id="cfg-instrucciones-ayuda" class="hint">
              Solo se usan si el servidor tiene configurado un modelo que redacta.
            </p>
            <label for="cfg-cache">Segundos en caché (0 la apaga)</label>
            <input
              id="cfg-cache"
              type="number"
              min={0}
              value={draft.cache_segundos}
              onInput={(e) => set('cache_segundos', Number(e.currentTarget.value))}
            />
            <label class="check">
              <input type="checkbox" checked={draft.citas} onChange={(e) => set('citas', e.currentTarget.checked)} />{' '}
              Marcar las citas [n] en el texto
            </label>
          </fieldset>
          {canEdit ? (
            <SaveBar busy={save.busy} error={save.error} saved={save.saved} />
          ) : (
            <p class="hint">Con tu rol en este espacio puedes consultar la configuración, no cambiarla.</p>
          )}
        </form>
      )}
      {canEdit && (
        <Section title="Caché de respuestas">
          <p>
            Las preguntas idénticas se responden desde la caché sin coste. Se vacía sola al cambiar documentos o
            configuración.
          </p>
          <ErrorNotice error={cache.error} />
          <SuccessNotice>{cache.saved}</SuccessNotice>
          <button
            type="button"
            class="button"
            disabled={cache.busy}
            onClick={() =>
              void cache.run(async () => {
                const r = await api<{ eliminadas: number }>('DELETE', `/rag/${seg(space)}/clear_cache`);
                return `Caché vaciada: ${r.eliminadas} respuestas eliminadas.`;
              })
            }
          >
            Vaciar la caché
          </button>
        </Section>
      )}
    </>
  );
}
