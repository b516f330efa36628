import { useState } from 'preact/hooks';
import { api, seg } from '../api/client.js';
import type { KeyRecord, Permission } from '../api/types.js';
import { ConfirmAction } from '../components/confirm-action.js';
import { SecretOnce } from '../components/secret-once.js';
import { EmptyState, ErrorNotice, Loading, SuccessNotice } from '../components/notice.js';
import { PageHeader, Section } from '../components/page.js';
import { formatDateTime, formatNumber } from '../lib/format.js';
import { useLoad } from '../lib/use-load.js';
import { useStudio } from '../state/session.js';
import { KeyUsage } from './key-usage.js';
import { TableWrap } from '../components/table-wrap.js';
import { EMPTY_LIMITS, KeyLimitFields, KeyLimitsEditor, limitsBody, limitsText } from './key-limits.js';

/** Service keys: create (secret shown once), list with usage and own limits, change limits, revoke. */
export function KeysPage() {
  const keys = useLoad(() => api<{ tokens: KeyRecord[] }>('GET', '/tokens').then((b) => b.tokens), []);
  const [created, setCreated] = useState<KeyRecord | null>(null);
  const [revoked, setRevoked] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const active = keys.data?.filter((k) => !k.revocado) ?? [];
  const gone = keys.data?.filter((k) => k.revocado) ?? [];

  return (
    <>
      <PageHeader
        title="Claves de la API"
        intro="Las claves las usa tu servidor para llamar a la API. Nunca las pongas en una página web ni en una app."
      />
      <CreateKey
        onCreated={(k) => {
          setCreated(k);
          setRevoked(null);
          void keys.reload();
        }}
      />
      {created?.token && (
        <SecretOnce
          title={`Clave «${created.nombre}» creada`}
          value={created.token}
          testId="clave-secreta"
          copyLabel="Copiar la clave"
          doneLabel="Ya la guardé"
          onDone={() => setCreated(null)}
        >
          <strong>Cópiala ahora: no se volverá a mostrar.</strong> Solo guardamos un resumen que no permite recuperarla.
        </SecretOnce>
      )}
      <SuccessNotice>{revoked && `Clave «${revoked}» revocada: desde ahora la API la rechaza.`}</SuccessNotice>
      <Section title="Claves activas">
        <ErrorNotice error={keys.error} />
        {keys.loading && !keys.data ? (
          <Loading />
        ) : active.length === 0 ? (
          <EmptyState title="No hay claves activas.">Crea una con el formulario de arriba.</EmptyState>
        ) : (
          <TableWrap label="Claves activas">
            <table class="table stack">
              <caption class="sr-only">Claves activas con su uso</caption>
              <thead>
                <tr>
                  <th scope="col">Nombre</th>
                  <th scope="col">Espacios</th>
                  <th scope="col">Permiso</th>
                  <th scope="col">Límites</th>
                  <th scope="col" class="num">
                    Llamadas
                  </th>
                  <th scope="col">Último uso</th>
                  <th scope="col">
                    <span class="sr-only">Acciones</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {active.map((k) => (
                  <KeyRow
                    key={k.id}
                    record={k}
                    showingUsage={selected === k.id}
                    onUsage={() => setSelected(selected === k.id ? null : k.id)}
                    editingLimits={editing === k.id}
                    onLimits={() => setEditing(editing === k.id ? null : k.id)}
                    onRevoked={() => {
                      setRevoked(k.nombre);
                      if (created?.id === k.id) setCreated(null);
                      void keys.reload();
                    }}
                  />
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}
      </Section>
      {editing && active.find((k) => k.id === editing) && (
        <KeyLimitsEditor
          key={editing}
          record={active.find((k) => k.id === editing)!}
          onSaved={() => void keys.reload()}
        />
      )}
      {selected && keys.data?.find((k) => k.id === selected) && (
        <KeyUsage record={keys.data.find((k) => k.id === selected)!} />
      )}
      {gone.length > 0 && (
        <Section title="Claves revocadas">
          <ul class="plain-list">
            {gone.map((k) => (
              <li key={k.id}>
                <span class="muted">{k.nombre}</span> · creada {formatDateTime(k.creado)}
              </li>
            ))}
          </ul>
        </Section>
      )}
    </>
  );
}

function KeyRow({
  record,
  onRevoked,
  onUsage,
  showingUsage,
  onLimits,
  editingLimits,
}: {
  record: KeyRecord;
  onRevoked: () => void;
  onUsage: () => void;
  showingUsage: boolean;
  onLimits: () => void;
  editingLimits: boolean;
}) {
  const [error, setError] = useState<unknown>(null);
  const revoke = async () => {
    setError(null);
    try {
      await api('DELETE', `/tokens/${seg(record.id)}`);
      onRevoked();
    } catch (err) {
      setError(err);
    }
  };
  return (
    <tr>
      <th scope="row">{record.nombre}</th>
      <td data-label="Espacios">{record.espacios.length === 0 ? 'Todos' : record.espacios.join(', ')}</td>
      <td data-label="Permiso">{record.permiso === 'escribe' ? 'Lectura y escritura' : 'Solo lectura'}</td>
      <td data-label="Límites">{limitsText(record)}</td>
      <td data-label="Llamadas" class="num">
        {formatNumber(record.llamadas ?? 0)}
      </td>
      <td data-label="Último uso">{record.ultimo_uso ? formatDateTime(record.ultimo_uso) : 'Nunca'}</td>
      <td class="actions">
        <button type="button" class="button subtle" aria-expanded={showingUsage} onClick={onUsage}>
          Uso<span class="sr-only"> de {record.nombre}</span>
        </button>
        <button type="button" class="button subtle" aria-expanded={editingLimits} onClick={onLimits}>
          Límites<span class="sr-only"> de {record.nombre}</span>
        </button>
        <ConfirmAction
          action="Revocar"
          confirm="Sí, revocar"
          group={`Confirmar revocación de ${record.nombre}`}
          target={record.nombre}
          onConfirm={revoke}
        />
        <ErrorNotice error={error} />
      </td>
    </tr>
  );
}

function CreateKey({ onCreated }: { onCreated: (k: KeyRecord) => void }) {
  const { session, spaces: all } = useStudio();
  // A member creates keys of the spaces they administer only, and always names them (never «all the spaces»).
  const member = session.tipo === 'miembro';
  const spaces = member ? all.filter((s) => s.rol === 'administra') : all;
  const [nombre, setNombre] = useState('');
  const [permiso, setPermiso] = useState<Permission>('lee');
  const [chosen, setChosen] = useState<string[]>([]);
  const [limits, setLimits] = useState(EMPTY_LIMITS);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const toggle = (id: string) => setChosen(chosen.includes(id) ? chosen.filter((s) => s !== id) : [...chosen, id]);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body = await api<{ token: KeyRecord }>('POST', '/tokens', {
        json: { nombre: nombre.trim(), espacios: chosen, permiso, ...limitsBody(limits) },
      });
      setNombre('');
      setChosen([]);
      setLimits(EMPTY_LIMITS);
      onCreated(body.token);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Section title="Crear una clave">
      <form class="form" onSubmit={submit}>
        <label for="clave-nombre">Nombre</label>
        <input
          id="clave-nombre"
          required
          maxLength={80}
          value={nombre}
          aria-describedby="clave-nombre-ayuda"
          onInput={(e) => setNombre(e.currentTarget.value)}
        />
        <p id="clave-nombre-ayuda" class="hint">
          Una clave por integración, por ejemplo «tienda-web» o «chat-whatsapp».
        </p>
        <fieldset>
          <legend>Espacios</legend>
          <p class="hint">
            {member
              ? 'Marca al menos uno: como miembro, tus claves solo alcanzan los espacios que administras.'
              : 'Sin marcar ninguno, la clave alcanza todos tus espacios, también los que se creen después.'}
          </p>
          <div class="checks">
            {spaces.map((s) => (
              <label key={s.id} class="check">
                <input type="checkbox" checked={chosen.includes(s.id)} onChange={() => toggle(s.id)} />{' '}
                {s.nombre || s.id}
              </label>
            ))}
          </div>
        </fieldset>
        <fieldset>
          <legend>Permiso</legend>
          <label class="check">
            <input
              type="radio"
              name="permiso"
              value="lee"
              checked={permiso === 'lee'}
              onChange={() => setPermiso('lee')}
            />{' '}
            Solo lectura: preguntar, listar y descargar
          </label>
          <label class="check">
            <input
              type="radio"
              name="permiso"
              value="escribe"
              checked={permiso === 'escribe'}
              onChange={() => setPermiso('escribe')}
            />{' '}
            Lectura y escritura: también subir, borrar y configurar
          </label>
        </fieldset>
        <KeyLimitFields idPrefix="clave-nueva" draft={limits} onChange={setLimits} />
        <ErrorNotice error={error} />
        <div>
          <button type="submit" class="button primary" disabled={busy}>
            {busy ? 'Creando…' : 'Crear la clave'}
          </button>
        </div>
      </form>
    </Section>
  );
}
