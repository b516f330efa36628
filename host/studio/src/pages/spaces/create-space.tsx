import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { CreatedSpace, SpaceAllowance } from '../../api/types.js';
import { Link } from '../../components/link.js';
import { ErrorNotice, SuccessNotice } from '../../components/notice.js';
import { Section } from '../../components/page.js';
import { plural } from '../../lib/plural.js';
import { useLoad } from '../../lib/use-load.js';
import { spacePath } from '../../nav.js';
import { useStudio } from '../../state/session.js';

/** What the allowance lets the owner do, in one sentence. */
function allowanceText(a: SpaceAllowance): string {
  if (a.max_espacios === 0) return 'En tu cuenta, los espacios los crea el operador de la plataforma: pídeselo a él.';
  if (a.disponibles === 0)
    return `Tienes ${plural(a.espacios, 'espacio', 'espacios')} y tu cupo es de ${a.max_espacios}: para crear otro, pide al operador de la plataforma que lo amplíe.`;
  return `Puedes crear ${plural(a.disponibles, 'espacio más', 'espacios más')} (tienes ${a.espacios} de ${a.max_espacios}).`;
}

/** «Crear un espacio»: the owner's allowance and, while it allows, the form (id and display name). */
export function CreateSpace() {
  const { reloadSpaces } = useStudio();
  const allowance = useLoad(() => api<SpaceAllowance>('GET', '/cupo_espacios'), []);
  const [id, setId] = useState('');
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [created, setCreated] = useState<CreatedSpace | null>(null);
  if (!allowance.data) return <ErrorNotice error={allowance.error} />;
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setCreated(null);
    try {
      const body = await api<{ espacio: CreatedSpace }>('POST', '/companies', {
        json: { id: id.trim(), ...(name.trim() ? { nombre: name.trim() } : {}) },
      });
      setCreated(body.espacio);
      setId('');
      setName('');
      await Promise.all([reloadSpaces(), allowance.reload()]);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const open = allowance.data.disponibles > 0;
  return (
    <Section title="Crear un espacio" id="crear-espacio">
      <p class="muted" data-testid="cupo-espacios">
        {allowanceText(allowance.data)}
      </p>
      {created && (
        <SuccessNotice>
          Se creó el espacio <Link to={spacePath(created.id, 'documentos')}>«{created.nombre}»</Link>. Empieza con el
          módulo API; el operador habilita los demás.
        </SuccessNotice>
      )}
      {open && (
        <form class="form" onSubmit={submit}>
          <label for="espacio-id">Id del espacio</label>
          <input
            id="espacio-id"
            required
            maxLength={63}
            autoCapitalize="off"
            autoComplete="off"
            spellcheck={false}
            aria-describedby="espacio-id-ayuda"
            value={id}
            onInput={(e) => setId(e.currentTarget.value)}
          />
          <p id="espacio-id-ayuda" class="muted small">
            Minúsculas, cifras, «-» o «_» (hasta 63). Va en las direcciones de la API y no se puede cambiar después.
          </p>
          <label for="espacio-nombre">Nombre visible (opcional)</label>
          <input id="espacio-nombre" maxLength={120} value={name} onInput={(e) => setName(e.currentTarget.value)} />
          <ErrorNotice error={error} title="No se creó." />
          <div class="row">
            <button type="submit" class="button primary" disabled={busy}>
              {busy ? 'Creando…' : 'Crear espacio'}
            </button>
          </div>
        </form>
      )}
    </Section>
  );
}
