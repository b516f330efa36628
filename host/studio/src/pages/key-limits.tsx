import { useState } from 'preact/hooks';
import { api, seg } from '../api/client.js';
import type { KeyRecord } from '../api/types.js';
import { Section } from '../components/page.js';
import { SaveBar } from '../components/save-bar.js';
import { formatNumber } from '../lib/format.js';
import { useSave } from '../lib/use-save.js';

/** The two limit fields as typed: empty means no limit of the key's own. */
export interface LimitsDraft {
  limite: string;
  cuota: string;
}

export const EMPTY_LIMITS: LimitsDraft = { limite: '', cuota: '' };

/** The wire body of a draft: an empty field is null (only the space's limit applies). */
export const limitsBody = (draft: LimitsDraft) => ({
  limite_por_minuto: draft.limite.trim() === '' ? null : Number(draft.limite),
  cuota_diaria: draft.cuota.trim() === '' ? null : Number(draft.cuota),
});

/** How the key list shows a key's own limits. */
export function limitsText(record: Pick<KeyRecord, 'limite_por_minuto' | 'cuota_diaria'>): string {
  const parts = [];
  if (record.limite_por_minuto !== null) parts.push(`${formatNumber(record.limite_por_minuto)}/min`);
  if (record.cuota_diaria !== null) parts.push(`${formatNumber(record.cuota_diaria)}/día`);
  return parts.length ? parts.join(' · ') : 'Los del espacio';
}

/** The per-minute limit and daily quota fields of a key, for the create form and the editor. */
export function KeyLimitFields({
  idPrefix,
  draft,
  onChange,
}: {
  idPrefix: string;
  draft: LimitsDraft;
  onChange: (draft: LimitsDraft) => void;
}) {
  return (
    <fieldset>
      <legend>Límites propios (opcional)</legend>
      <p id={`${idPrefix}-ayuda`} class="hint">
        Vacío: solo los límites de cada espacio. Se suman las peticiones de la clave en todos sus espacios y nunca
        amplían el límite de un espacio: se aplican los dos y manda el más estricto.
      </p>
      <LimitInput
        id={`${idPrefix}-limite`}
        label="Peticiones por minuto de esta clave"
        placeholder="Sin límite propio"
        hint={`${idPrefix}-ayuda`}
        value={draft.limite}
        onInput={(limite) => onChange({ ...draft, limite })}
      />
      <LimitInput
        id={`${idPrefix}-cuota`}
        label="Peticiones por día (UTC) de esta clave"
        placeholder="Sin cuota propia"
        hint={`${idPrefix}-ayuda`}
        value={draft.cuota}
        onInput={(cuota) => onChange({ ...draft, cuota })}
      />
    </fieldset>
  );
}

/** One limit field: a whole number of at least 1, or empty for none. */
function LimitInput(props: {
  id: string;
  label: string;
  placeholder: string;
  hint: string;
  value: string;
  onInput: (value: string) => void;
}) {
  return (
    <>
      <label for={props.id}>{props.label}</label>
      <input
        id={props.id}
        type="number"
        min={1}
        inputMode="numeric"
        value={props.value}
        placeholder={props.placeholder}
        aria-describedby={props.hint}
        onInput={(e) => props.onInput(e.currentTarget.value)}
      />
    </>
  );
}

/** Changes the own limits of one key (`PATCH /tokens/{id}`). */
export function KeyLimitsEditor({ record, onSaved }: { record: KeyRecord; onSaved: () => void }) {
  const [draft, setDraft] = useState<LimitsDraft>({
    limite: record.limite_por_minuto === null ? '' : String(record.limite_por_minuto),
    cuota: record.cuota_diaria === null ? '' : String(record.cuota_diaria),
  });
  const save = useSave();
  const submit = (e: Event) => {
    e.preventDefault();
    void save.run(async () => {
      await api('PATCH', `/tokens/${seg(record.id)}`, { json: limitsBody(draft) });
      onSaved();
      return `Límites de «${record.nombre}» guardados: se aplican desde la próxima petición.`;
    });
  };
  return (
    <Section title={`Límites de «${record.nombre}»`}>
      <form class="form" onSubmit={submit}>
        <KeyLimitFields idPrefix={`limites-${record.id}`} draft={draft} onChange={setDraft} />
        <SaveBar busy={save.busy} error={save.error} saved={save.saved} label="Guardar límites" />
      </form>
    </Section>
  );
}
