import { useState } from 'preact/hooks';
import { api, seg } from '../../api/client.js';
import type { Product } from '../../api/types.js';
import { ErrorNotice } from '../../components/notice.js';
import { Section } from '../../components/page.js';

/** What the form holds: text as typed, turned into the product only when saving. */
interface Draft {
  id: string;
  nombre: string;
  descripcion: string;
  precio: string;
  moneda: string;
  stock: string;
  envio: string;
}

const draftOf = (p: Product | null, currency: string): Draft => ({
  id: p?.id ?? '',
  nombre: p?.nombre ?? '',
  descripcion: p?.descripcion ?? '',
  precio: p ? String(p.precio) : '',
  moneda: p?.moneda ?? currency,
  stock: p ? String(p.stock) : '0',
  envio: Object.entries(p?.envio ?? {})
    .map(([city, cost]) => `${city}=${cost}`)
    .join('\n'),
});

/** A decimal as people type it here: "89,90" and "89.90" are the same price. */
const decimal = (text: string): number => Number(text.trim().replace(',', '.'));

/** «Ciudad=costo», one per line, into the API's `envio` (null when empty); a line that is not is named. */
function shippingOf(text: string): { envio: Record<string, number> | null } | { problem: string } {
  const envio: Record<string, number> = {};
  const lines = text.split('\n').map((l) => l.trim());
  for (const [i, line] of lines.entries()) {
    if (!line) continue;
    const at = line.lastIndexOf('=');
    const cost = at > 0 ? decimal(line.slice(at + 1)) : Number.NaN;
    if (at <= 0 || !line.slice(0, at).trim() || !Number.isFinite(cost))
      return { problem: `Envío, línea ${i + 1}: escribe «Ciudad=costo», por ejemplo «Bogotá=8000».` };
    envio[line.slice(0, at).trim()] = cost;
  }
  return { envio: Object.keys(envio).length > 0 ? envio : null };
}

/**
 * Adds one product or edits one (`PUT /mod/ventas/{espacio}/productos/{producto}`: the whole product, so what the
 * form shows is exactly what is stored). The id of an existing product is fixed: it is how quotes name it.
 */
export function ProductEditor({
  space,
  product,
  currency,
  onSaved,
  onClose,
}: {
  space: string;
  /** The product edited, or null to add one. */
  product: Product | null;
  /** The catalog's currency, proposed for a new product. */
  currency: string;
  onSaved: (saved: Product) => void;
  onClose: () => void;
}) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(product, currency));
  const [error, setError] = useState<unknown>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const field = (name: keyof Draft) => ({
    value: draft[name],
    onInput: (e: { currentTarget: { value: string } }) => setDraft({ ...draft, [name]: e.currentTarget.value }),
  });

  const save = async (e: Event) => {
    e.preventDefault();
    setError(null);
    setProblem(null);
    const shipping = shippingOf(draft.envio);
    if ('problem' in shipping) return setProblem(shipping.problem);
    const id = draft.id.trim();
    setBusy(true);
    try {
      const saved = await api<Product>('PUT', `/mod/ventas/${seg(space)}/productos/${seg(id)}`, {
        json: {
          nombre: draft.nombre,
          descripcion: draft.descripcion.trim() ? draft.descripcion : null,
          precio: decimal(draft.precio),
          moneda: draft.moneda,
          stock: Number(draft.stock),
          envio: shipping.envio,
        },
      });
      onSaved(saved);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const title = product ? `Editar «${product.nombre}»` : 'Añadir un producto';
  return (
    <Section title={title} id="producto-editor">
      <form class="form" onSubmit={save}>
        <label for="producto-id">Id</label>
        <input
          id="producto-id"
          required
          maxLength={64}
          pattern="[\p{L}\p{N}._\-]+"
          readOnly={product !== null}
          aria-describedby="producto-id-ayuda"
          {...field('id')}
        />
        <p id="producto-id-ayuda" class="hint">
          {product
            ? 'El id no cambia: es como lo nombran las cotizaciones.'
            : 'Letras, números, punto, guion y guion bajo; por ejemplo «taladro-500».'}
        </p>
        <label for="producto-nombre">Nombre</label>
        <input id="producto-nombre" required maxLength={120} {...field('nombre')} />
        <label for="producto-descripcion">Descripción (opcional)</label>
        <textarea id="producto-descripcion" rows={3} maxLength={1000} {...field('descripcion')} />
        <div class="row product-figures">
          <div class="field">
            <label for="producto-precio">Precio</label>
            <input id="producto-precio" required inputMode="decimal" size={10} {...field('precio')} />
          </div>
          <div class="field">
            <label for="producto-moneda">Moneda</label>
            <input
              id="producto-moneda"
              required
              size={4}
              maxLength={3}
              aria-describedby="producto-moneda-ayuda"
              {...field('moneda')}
            />
          </div>
          <div class="field">
            <label for="producto-stock">Stock</label>
            <input id="producto-stock" required type="number" min={0} step={1} size={6} {...field('stock')} />
          </div>
        </div>
        <p id="producto-moneda-ayuda" class="hint">
          La moneda, con su código de tres letras: COP, EUR, MXN…
        </p>
        <label for="producto-envio">Envío por ciudad (opcional)</label>
        <textarea id="producto-envio" rows={3} aria-describedby="producto-envio-ayuda" {...field('envio')} />
        <p id="producto-envio-ayuda" class="hint">
          Una ciudad por línea: «Bogotá=8000». Una ciudad que no está no tiene envío.
        </p>
        {problem && (
          <div class="notice notice-error" role="alert">
            {problem}
          </div>
        )}
        <ErrorNotice error={error} title="No se guardó." />
        <div class="row">
          <button type="submit" class="button primary" disabled={busy}>
            {busy ? 'Guardando…' : product ? 'Guardar cambios' : 'Añadir producto'}
          </button>
          <button type="button" class="button subtle" onClick={onClose}>
            Cancelar
          </button>
        </div>
      </form>
    </Section>
  );
}
