import { useEffect, useState } from 'preact/hooks';
import { api, seg } from '../api/client.js';
import type { Brand } from '../api/types.js';
import { ErrorNotice, Loading } from '../components/notice.js';
import { PageHeader } from '../components/page.js';
import { SaveBar } from '../components/save-bar.js';
import { buildPersona } from '../lib/persona.js';
import { fromLines, fromWords, linesToPairs, pairsToLines, toLines } from '../lib/lines.js';
import { useLoad } from '../lib/use-load.js';
import { useSave } from '../lib/use-save.js';
import { useSpace } from '../state/session.js';
import { SalesBrandSwitch } from './sales-brand-switch.js';
import { useCan } from '../state/role.js';

const TONES = ['cercano', 'formal', 'amable', 'entusiasta', 'profesional', 'divertido', 'sereno', 'tecnico'];
const TRAITS = [
  'empatico',
  'resolutivo',
  'paciente',
  'experto',
  'optimista',
  'detallista',
  'servicial',
  'honesto',
  'creativo',
  'directo',
];
const LABEL: Record<string, string> = { tecnico: 'técnico', empatico: 'empático' };

interface Draft {
  brand: Brand;
  emojisPermitidos: string;
  emojisObligatorios: string;
  combos: string;
  preguntas: string;
}

/** The brand the form describes, as PATCH /config takes it (each section whole). */
const fromDraft = (draft: Draft): Brand => ({
  ...draft.brand,
  estilo: {
    ...draft.brand.estilo,
    emojis_permitidos: fromWords(draft.emojisPermitidos),
    emojis_obligatorios: fromWords(draft.emojisObligatorios),
  },
  tacticas: {
    ...draft.brand.tacticas,
    upsell_combos: linesToPairs(draft.combos),
    preguntas_cierre: fromLines(draft.preguntas),
  },
});

const toDraft = (brand: Brand): Draft => ({
  brand,
  emojisPermitidos: brand.estilo.emojis_permitidos.join(' '),
  emojisObligatorios: brand.estilo.emojis_obligatorios.join(' '),
  combos: pairsToLines(brand.tacticas.upsell_combos),
  preguntas: toLines(brand.tacticas.preguntas_cierre),
});

/**
 * The sales agent's brand personality. Beside it, the persona: while editing, built live from the form with marca's
 * own builder; once saved, the text GET /persona gives the agent.
 */
export function BrandPage({ space }: { space: string }) {
  // A `consulta` member reads the brand; saving is not offered to them.
  const canEdit = useCan(space, 'edita');
  const brand = useLoad(() => api<Brand>('GET', `/mod/marca/${seg(space)}/config`), [space]);
  const persona = useLoad(
    () => api<{ persona: string }>('GET', `/mod/marca/${seg(space)}/persona`).then((b) => b.persona),
    [space],
  );
  const [draft, setDraft] = useState<Draft | null>(null);
  const save = useSave();
  const hasSales = useSpace(space)?.modulos.includes('ventas') ?? false;
  useEffect(() => {
    if (brand.data) setDraft(toDraft(brand.data));
  }, [brand.data]);

  if (!draft) {
    return (
      <>
        <PageHeader title="Marca" />
        <ErrorNotice error={brand.error} />
        {!brand.error && <Loading />}
      </>
    );
  }
  const b = draft.brand;
  const setBrand = (patch: Partial<Brand>) => setDraft({ ...draft, brand: { ...b, ...patch } });
  const setIdentity = (patch: Partial<Brand['identidad']>) => setBrand({ identidad: { ...b.identidad, ...patch } });
  const setStyle = (patch: Partial<Brand['estilo']>) => setBrand({ estilo: { ...b.estilo, ...patch } });
  const setTactics = (patch: Partial<Brand['tacticas']>) => setBrand({ tacticas: { ...b.tacticas, ...patch } });
  const toggle = (list: string[], value: string) =>
    list.includes(value) ? list.filter((v) => v !== value) : [...list, value];

  const body = fromDraft(draft);
  // Both sides go through the form's own conversion, so key order and list spelling cannot differ.
  const unsaved = brand.data !== undefined && JSON.stringify(body) !== JSON.stringify(fromDraft(toDraft(brand.data)));
  const submit = (e: Event) => {
    e.preventDefault();
    void save.run(async () => {
      brand.set(await api<Brand>('PATCH', `/mod/marca/${seg(space)}/config`, { json: body }));
      await persona.reload();
      return 'Marca guardada. Las conversaciones la usan en menos de un minuto.';
    });
  };

  return (
    <>
      <PageHeader
        title="Marca"
        intro="La personalidad del agente de ventas: quién es y cómo habla. No guarda precios ni datos del catálogo."
      />
      <div class="split">
        <form class="form card" onSubmit={submit} aria-label="Editar la marca">
          <label class="check switch">
            <input
              type="checkbox"
              role="switch"
              checked={b.activo}
              onChange={(e) => setBrand({ activo: e.currentTarget.checked })}
            />{' '}
            Marca activa
          </label>
          {hasSales ? (
            <SalesBrandSwitch space={space} />
          ) : (
            <p class="hint">La marca se aplica en el módulo de ventas, que este espacio no tiene.</p>
          )}
          <fieldset>
            <legend>Identidad</legend>
            <label for="marca-name">Nombre de la marca</label>
            <input
              id="marca-name"
              required
              maxLength={80}
              value={b.name}
              onInput={(e) => setBrand({ name: e.currentTarget.value })}
            />
            <label for="marca-agente">Nombre del agente</label>
            <input
              id="marca-agente"
              required
              maxLength={40}
              value={b.identidad.nombre_agente}
              onInput={(e) => setIdentity({ nombre_agente: e.currentTarget.value })}
            />
            <label for="marca-rol">Rol</label>
            <input
              id="marca-rol"
              required
              maxLength={80}
              value={b.identidad.rol}
              onInput={(e) => setIdentity({ rol: e.currentTarget.value })}
            />
            <label for="marca-linea">Línea de negocio</label>
            <input
              id="marca-linea"
              maxLength={120}
              value={b.identidad.linea}
              placeholder="tienda de ropa deportiva"
              onInput={(e) => setIdentity({ linea: e.currentTarget.value })}
            />
          </fieldset>
          <fieldset>
            <legend>Tono (hasta 3)</legend>
            <div class="checks">
              {TONES.map((t) => (
                <label key={t} class="check">
                  <input
                    type="checkbox"
                    checked={b.estilo.tono.includes(t)}
                    onChange={() => setStyle({ tono: toggle(b.estilo.tono, t) })}
                  />{' '}
                  {LABEL[t] ?? t}
                </label>
              ))}
            </div>
          </fieldset>
          <fieldset>
            <legend>Rasgos (hasta 5)</legend>
            <div class="checks">
              {TRAITS.map((t) => (
                <label key={t} class="check">
                  <input
                    type="checkbox"
                    checked={b.estilo.rasgos.includes(t)}
                    onChange={() => setStyle({ rasgos: toggle(b.estilo.rasgos, t) })}
                  />{' '}
                  {LABEL[t] ?? t}
                </label>
              ))}
            </div>
          </fieldset>
          <fieldset>
            <legend>Estilo</legend>
            <label for="marca-lineas">Máximo de líneas por respuesta (1 a 20)</label>
            <input
              id="marca-lineas"
              type="number"
              min={1}
              max={20}
              value={b.estilo.max_lineas}
              onInput={(e) => setStyle({ max_lineas: Number(e.currentTarget.value) })}
            />
            <label class="check">
              <input
                type="checkbox"
                checked={b.estilo.solo_texto_plano}
                onChange={(e) => setStyle({ solo_texto_plano: e.currentTarget.checked })}
              />{' '}
              Solo texto plano (sin negritas ni listas)
            </label>
            <label for="marca-emojis">Emojis permitidos</label>
            <input
              id="marca-emojis"
              value={draft.emojisPermitidos}
              onInput={(e) => setDraft({ ...draft, emojisPermitidos: e.currentTarget.value })}
              aria-describedby="marca-emojis-ayuda"
            />
            <p id="marca-emojis-ayuda" class="hint">
              Separados por espacios. Vacío: sin emojis.
            </p>
            <label for="marca-emojis-oblig">Emojis obligatorios</label>
            <input
              id="marca-emojis-oblig"
              value={draft.emojisObligatorios}
              onInput={(e) => setDraft({ ...draft, emojisObligatorios: e.currentTarget.value })}
            />
          </fieldset>
          <fieldset>
            <legend>Tácticas</legend>
            <label class="check">
              <input
                type="checkbox"
                checked={b.tacticas.upsell_activo}
                onChange={(e) => setTactics({ upsell_activo: e.currentTarget.checked })}
              />{' '}
              Sugerir combos
            </label>
            <label for="marca-combos">Combos</label>
            <textarea
              id="marca-combos"
              rows={3}
              value={draft.combos}
              placeholder="zapatilla = kit de limpieza"
              onInput={(e) => setDraft({ ...draft, combos: e.currentTarget.value })}
              aria-describedby="marca-combos-ayuda"
            />
            <p id="marca-combos-ayuda" class="hint">
              Uno por línea: «texto del producto = nombre del combo».
            </p>
            <label for="marca-argumento">Argumento del combo</label>
            <input
              id="marca-argumento"
              maxLength={300}
              value={b.tacticas.upsell_argumento}
              onInput={(e) => setTactics({ upsell_argumento: e.currentTarget.value })}
            />
            <label for="marca-plantilla">Plantilla de la sugerencia</label>
            <input
              id="marca-plantilla"
              maxLength={300}
              value={b.tacticas.upsell_plantilla}
              onInput={(e) => setTactics({ upsell_plantilla: e.currentTarget.value })}
              aria-describedby="marca-plantilla-ayuda"
            />
            <p id="marca-plantilla-ayuda" class="hint">
              Debe incluir {'{combo}'}; puede incluir {'{argumento}'}. Sin cifras.
            </p>
            <label class="check">
              <input
                type="checkbox"
                checked={b.tacticas.pregunta_cierre_obligatoria}
                onChange={(e) => setTactics({ pregunta_cierre_obligatoria: e.currentTarget.checked })}
              />{' '}
              Terminar siempre con una pregunta de cierre
            </label>
            <label for="marca-preguntas">Preguntas de cierre</label>
            <textarea
              id="marca-preguntas"
              rows={3}
              value={draft.preguntas}
              onInput={(e) => setDraft({ ...draft, preguntas: e.currentTarget.value })}
              aria-describedby="marca-preguntas-ayuda"
            />
            <p id="marca-preguntas-ayuda" class="hint">
              Una por línea; se usan por turnos.
            </p>
          </fieldset>
          {canEdit ? (
            <SaveBar busy={save.busy} error={save.error} saved={save.saved} label="Guardar la marca" />
          ) : (
            <p class="hint">Con tu rol en este espacio puedes consultar la marca, no cambiarla.</p>
          )}
        </form>
        <aside class="card persona" aria-labelledby="persona-titulo">
          <h2 id="persona-titulo">Así se presenta el agente</h2>
          {unsaved ? (
            <>
              <p class="hint">
                <span class="badge warn">Sin guardar</span> Vista previa de tus cambios: el texto que leerá el agente de
                ventas cuando los guardes.
              </p>
              <pre class="persona-text draft" data-testid="persona-borrador">
                {buildPersona(body)}
              </pre>
            </>
          ) : (
            <>
              <p class="hint">El texto exacto que lee ahora el agente de ventas.</p>
              <ErrorNotice error={persona.error} />
              {persona.data === undefined ? (
                <Loading />
              ) : (
                <pre class="persona-text" data-testid="persona">
                  {persona.data}
                </pre>
              )}
            </>
          )}
        </aside>
      </div>
    </>
  );
}
