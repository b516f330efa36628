import { useState } from 'preact/hooks';
import { api, seg } from '../api/client.js';
import type { CreatedInvitation, Invitation, MemberRecord, MemberRole } from '../api/types.js';
import { ConfirmAction } from '../components/confirm-action.js';
import { EmptyState, ErrorNotice, Loading, SuccessNotice } from '../components/notice.js';
import { PageHeader, Section } from '../components/page.js';
import { SecretOnce } from '../components/secret-once.js';
import { TableWrap } from '../components/table-wrap.js';
import { formatDateTime } from '../lib/format.js';
import { useLoad } from '../lib/use-load.js';
import { useSave } from '../lib/use-save.js';
import { ROLE_HINT, ROLE_LABEL } from '../state/role.js';

const ROLES: MemberRole[] = ['consulta', 'edita', 'administra'];

/**
 * The people of a space besides its owner: invite by email with a role (the one-time link is shown to copy: the
 * service sends no mail), change a role, remove someone, withdraw a pending invitation. Only the owner and the
 * space's `administra` members reach it; the API refuses anyone else anyway.
 */
export function MembersPage({ space }: { space: string }) {
  const members = useLoad(
    () => api<{ miembros: MemberRecord[] }>('GET', `/companies/${seg(space)}/miembros`).then((b) => b.miembros),
    [space],
  );
  const invitations = useLoad(
    () =>
      api<{ invitaciones: Invitation[] }>('GET', `/companies/${seg(space)}/invitaciones`).then((b) => b.invitaciones),
    [space],
  );
  const [created, setCreated] = useState<CreatedInvitation | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  return (
    <>
      <PageHeader
        title="Miembros"
        intro={
          <>
            Las personas que trabajan en el espacio <code>{space}</code> con su propio acceso a Studio, cada una con un
            rol. Al quitar a alguien o cambiar su rol, sus sesiones se cierran al momento.
          </>
        }
      />
      <InviteForm
        space={space}
        onInvited={(invitation) => {
          setCreated(invitation);
          setNotice(null);
          void invitations.reload();
        }}
      />
      {created && (
        <SecretOnce
          title={`Invitación para ${created.email}`}
          value={created.enlace}
          testId="enlace-invitacion"
          copyLabel="Copiar el enlace"
          doneLabel="Ya lo copié"
          onDone={() => setCreated(null)}
        >
          <strong>Copia el enlace y envíaselo tú:</strong> este servidor aún no envía correos. Sirve una sola vez, hasta
          el {formatDateTime(created.expira)}, y no se volverá a mostrar.
        </SecretOnce>
      )}
      <SuccessNotice>{notice}</SuccessNotice>
      <Section title="Miembros del espacio">
        <ErrorNotice error={members.error} />
        {members.loading && !members.data ? (
          <Loading />
        ) : !members.data || members.data.length === 0 ? (
          <EmptyState title="Todavía no hay miembros.">Invita a alguien con el formulario de arriba.</EmptyState>
        ) : (
          <TableWrap label="Miembros">
            <table class="table stack">
              <caption class="sr-only">Miembros del espacio y su rol</caption>
              <thead>
                <tr>
                  <th scope="col">Nombre</th>
                  <th scope="col">Email</th>
                  <th scope="col">Rol</th>
                  <th scope="col">Desde</th>
                  <th scope="col">
                    <span class="sr-only">Acciones</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {members.data.map((m) => (
                  <MemberRow
                    key={m.id}
                    space={space}
                    member={m}
                    onChanged={(text) => {
                      setNotice(text);
                      void members.reload();
                    }}
                  />
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}
      </Section>
      <Section title="Invitaciones pendientes">
        <ErrorNotice error={invitations.error} />
        {invitations.loading && !invitations.data ? (
          <Loading />
        ) : !invitations.data || invitations.data.length === 0 ? (
          <p class="muted">No hay invitaciones pendientes.</p>
        ) : (
          <ul class="plain-list">
            {invitations.data.map((i) => (
              <PendingInvitation
                key={i.id}
                space={space}
                invitation={i}
                onWithdrawn={() => {
                  setNotice(`Invitación para ${i.email} retirada: su enlace ya no sirve.`);
                  if (created?.id === i.id) setCreated(null);
                  void invitations.reload();
                }}
              />
            ))}
          </ul>
        )}
      </Section>
    </>
  );
}

function RoleSelect({
  id,
  value,
  onChange,
  describedBy,
}: {
  id: string;
  value: MemberRole;
  onChange: (role: MemberRole) => void;
  describedBy?: string;
}) {
  return (
    <select
      id={id}
      value={value}
      aria-describedby={describedBy}
      onChange={(e) => onChange(e.currentTarget.value as MemberRole)}
    >
      {ROLES.map((r) => (
        <option key={r} value={r}>
          {ROLE_LABEL[r]}
        </option>
      ))}
    </select>
  );
}

function InviteForm({ space, onInvited }: { space: string; onInvited: (i: CreatedInvitation) => void }) {
  const [email, setEmail] = useState('');
  const [rol, setRol] = useState<MemberRole>('edita');
  const sending = useSave();
  const submit = (e: Event) => {
    e.preventDefault();
    void sending.run(async () => {
      const invitation = await api<CreatedInvitation>('POST', `/companies/${seg(space)}/miembros`, {
        json: { email: email.trim(), rol },
      });
      setEmail('');
      onInvited(invitation);
      return '';
    });
  };
  return (
    <Section title="Invitar a una persona">
      <form class="form" onSubmit={submit}>
        <label for="invitar-email">Email</label>
        <input
          id="invitar-email"
          type="email"
          required
          maxLength={254}
          autoComplete="off"
          value={email}
          onInput={(e) => setEmail(e.currentTarget.value)}
        />
        <label for="invitar-rol">Rol</label>
        <RoleSelect id="invitar-rol" value={rol} onChange={setRol} describedBy="invitar-rol-ayuda" />
        <p id="invitar-rol-ayuda" class="hint">
          {ROLE_LABEL[rol]}: {ROLE_HINT[rol]}.
        </p>
        <ErrorNotice error={sending.error} />
        <div>
          <button type="submit" class="button primary" disabled={sending.busy}>
            {sending.busy ? 'Invitando…' : 'Crear la invitación'}
          </button>
        </div>
      </form>
    </Section>
  );
}

function MemberRow({
  space,
  member,
  onChanged,
}: {
  space: string;
  member: MemberRecord;
  onChanged: (notice: string) => void;
}) {
  const [error, setError] = useState<unknown>(null);
  const path = `/companies/${seg(space)}/miembros/${seg(member.id)}`;
  const run = async (work: () => Promise<unknown>, notice: string) => {
    setError(null);
    try {
      await work();
      onChanged(notice);
    } catch (err) {
      setError(err);
    }
  };
  const selectId = `rol-${member.id}`;
  return (
    <tr>
      <th scope="row">{member.nombre}</th>
      <td data-label="Email">{member.email}</td>
      <td data-label="Rol">
        <label for={selectId} class="sr-only">
          Rol de {member.nombre}
        </label>
        <RoleSelect
          id={selectId}
          value={member.rol}
          onChange={(rol) =>
            void run(
              () => api('PATCH', path, { json: { rol } }),
              `${member.nombre} ahora tiene el rol ${ROLE_LABEL[rol]}; sus sesiones se cerraron.`,
            )
          }
        />
      </td>
      <td data-label="Desde">{formatDateTime(member.desde)}</td>
      <td class="actions">
        <ConfirmAction
          action="Quitar"
          confirm="Sí, quitar"
          group={`Confirmar que se quita a ${member.nombre}`}
          target={member.nombre}
          onConfirm={() =>
            run(() => api('DELETE', path), `${member.nombre} ya no es miembro del espacio; sus sesiones se cerraron.`)
          }
        />
        <ErrorNotice error={error} />
      </td>
    </tr>
  );
}

function PendingInvitation({
  space,
  invitation,
  onWithdrawn,
}: {
  space: string;
  invitation: Invitation;
  onWithdrawn: () => void;
}) {
  const [error, setError] = useState<unknown>(null);
  const withdraw = async () => {
    setError(null);
    try {
      await api('DELETE', `/companies/${seg(space)}/invitaciones/${seg(invitation.id)}`);
      onWithdrawn();
    } catch (err) {
      setError(err);
    }
  };
  return (
    <li class="row">
      <span>
        <strong>{invitation.email}</strong> · {ROLE_LABEL[invitation.rol]} · caduca {formatDateTime(invitation.expira)}
      </span>
      <ConfirmAction
        action="Retirar"
        confirm="Sí, retirar"
        group={`Confirmar que se retira la invitación de ${invitation.email}`}
        target={invitation.email}
        onConfirm={withdraw}
      />
      <ErrorNotice error={error} />
    </li>
  );
}
