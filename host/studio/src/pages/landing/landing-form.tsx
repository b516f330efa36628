import { useState } from 'preact/hooks';
import { api, seg } from '../../api/client.js';
import type { Landing } from '../../api/module-types.js';
import type { Product } from '../../api/types.js';
import { Section } from '../../components/page.js';
import { SaveBar } from '../../components/save-bar.js';
import { formatMoney } from '../../lib/money.js';
import { useLoad } from '../../lib/use-load.js';
import { useSave } from '../../lib/use-save.js';

/** The page's sections, in their default order, with the words people use for them. */
export const SECTIONS: [string, string][] = [
  ['hero', 'Portada'],
  ['beneficios', 'Beneficios'],
  ['caracteristicas', 'Características'],
  ['precios', 'Precios'],
  ['preguntas_frecuentes', 'Preguntas frecuentes'],
  ['cta', 'Llamada a la acción'],
  ['contacto', 'Contacto'],
];
export const COLORS = ['azul', 'verde', 'violeta', 'coral', 'oscuro', 'neutro'];

interface LandingFormState {
  objetivo: string;
  tema: string;
  productos: string[];
  publico: string;
  secciones: string[];
  ctaTexto: string;
  ctaUrl: string;
  contacto: string;
  idioma: 'es' | 'en';
  color: string;
  longitud: string;
}

const EMPTY: LandingFormState = {
  objetivo: '',
  tema: '',
  productos: [],
  publico: '',
  secciones: [],
  ctaTexto: '',
  ctaUrl: '',
  contacto: '',
  idioma: 'es',
  color: '',
  longitud: 'media',
};

/** `POST /landings` with only what was filled in: the module chooses sections and colours from the data otherwise. */
export function landingBody(f: LandingFormState): Record<string, unknown> {
  const body: Record<string, unknown> = { objetivo: f.objetivo.trim(), idioma: f.idioma, longitud: f.longitud };
  if (f.tema.trim()) body.tema = f.tema.trim();
  if (f.productos.length) body.productos = f.productos;
  if (f.publico.trim()) body.publico = f.publico.trim();
  if (f.secciones.length) body.secciones = SECTIONS.map(([id]) => id).filter((id) => f.secciones.includes(id));
  if (f.ctaTexto.trim() || f.ctaUrl.trim())
    body.cta = {
      ...(f.ctaTexto.trim() ? { texto: f.ctaTexto.trim() } : {}),
      ...(f.ctaUrl.trim() ? { url: f.ctaUrl.trim() } : {}),
    };
  if (f.contacto.trim()) body.contacto = f.contacto.trim();
  if (f.color) body.tema_color = f.color;
  return body;
}

/** A new landing (2 credits): what it is for, its subject or catalog products, and optional layout choices. */
export function LandingForm({
  space,
  base,
  onCreated,
}: {
  space: string;
  base: string;
  onCreated: (landing: Landing) => void;
}) {
  const [form, setForm] = useState<LandingFormState>(EMPTY);
  const catalog = useLoad(
    () => api<{ productos: Product[] }>('GET', `/mod/ventas/${seg(space)}/productos`, { query: { limite: 200 } }),
    [space],
  );
  const save = useSave();
  const set = <K extends keyof LandingFormState>(key: K, value: LandingFormState[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const toggle = (key: 'productos' | 'secciones', id: string, on: boolean) =>
    setForm((f) => ({ ...f, [key]: on ? [...f[key], id] : f[key].filter((x) => x !== id) }));
  const submit = (e: Event) => {
    e.preventDefault();
    void save.run(async () => {
      const landing = await api<Landing>('POST', `${base}/landings`, { json: landingBody(form) });
      setForm(EMPTY);
      onCreated(landing);
      return 'Landing encargada: se está escribiendo.';
    });
  };
  const products = catalog.data?.productos ?? [];
  return (
    <Section title="Nueva landing">
      <form class="form" onSubmit={submit}>
        <label for="landing-objetivo">Objetivo</label>
        <input
          id="landing-objetivo"
          required
          minLength={3}
          maxLength={500}
          placeholder="Vender más zapatillas en temporada de carreras"
          value={form.objetivo}
          onInput={(e) => set('objetivo', e.currentTarget.value)}
        />
        <label for="landing-tema">Tema</label>
        <input
          id="landing-tema"
          maxLength={120}
          aria-describedby="landing-tema-ayuda"
          value={form.tema}
          onInput={(e) => set('tema', e.currentTarget.value)}
        />
        <p id="landing-tema-ayuda" class="hint">
          De qué trata la página. Hace falta un tema o al menos un producto del catálogo.
        </p>
        <fieldset>
          <legend>Productos del catálogo</legend>
          {catalog.error ? (
            <p class="hint">No se pudo leer el catálogo de ventas (¿el módulo está activo en este espacio?).</p>
          ) : products.length === 0 ? (
            <p class="hint">{catalog.data ? 'El catálogo está vacío.' : 'Cargando el catálogo…'}</p>
          ) : (
            <div class="checks">
              {products.map((p) => (
                <label key={p.id} class="check">
                  <input
                    type="checkbox"
                    checked={form.productos.includes(p.id)}
                    disabled={!form.productos.includes(p.id) && form.productos.length >= 12}
                    onChange={(e) => toggle('productos', p.id, e.currentTarget.checked)}
                  />{' '}
                  {p.nombre} <span class="muted small">({formatMoney(p.precio, p.moneda)})</span>
                </label>
              ))}
            </div>
          )}
        </fieldset>
        <label for="landing-publico">Público (opcional)</label>
        <input
          id="landing-publico"
          maxLength={300}
          placeholder="corredores que entrenan varias veces por semana"
          value={form.publico}
          onInput={(e) => set('publico', e.currentTarget.value)}
        />
        <fieldset>
          <legend>Secciones (sin marcar ninguna: todas las que tengan datos)</legend>
          <div class="checks">
            {SECTIONS.map(([id, label]) => (
              <label key={id} class="check">
                <input
                  type="checkbox"
                  checked={form.secciones.includes(id)}
                  onChange={(e) => toggle('secciones', id, e.currentTarget.checked)}
                />{' '}
                {label}
              </label>
            ))}
          </div>
        </fieldset>
        <fieldset>
          <legend>Botón principal (opcional)</legend>
          <label for="landing-cta-texto">Texto del botón</label>
          <input
            id="landing-cta-texto"
            maxLength={60}
            placeholder="Comprar ahora"
            value={form.ctaTexto}
            onInput={(e) => set('ctaTexto', e.currentTarget.value)}
          />
          <label for="landing-cta-url">Enlace del botón</label>
          <input
            id="landing-cta-url"
            aria-describedby="landing-cta-ayuda"
            placeholder="https://"
            value={form.ctaUrl}
            onInput={(e) => set('ctaUrl', e.currentTarget.value)}
          />
          <p id="landing-cta-ayuda" class="hint">
            https://, http://, mailto: o tel:. Si lo dejas vacío, se pregunta después.
          </p>
        </fieldset>
        <label for="landing-contacto">Contacto (correo o teléfono, opcional)</label>
        <input
          id="landing-contacto"
          maxLength={200}
          value={form.contacto}
          onInput={(e) => set('contacto', e.currentTarget.value)}
        />
        <div class="row">
          <span class="field">
            <label for="landing-idioma">Idioma</label>
            <select
              id="landing-idioma"
              value={form.idioma}
              onChange={(e) => set('idioma', e.currentTarget.value as 'es' | 'en')}
            >
              <option value="es">Español</option>
              <option value="en">Inglés</option>
            </select>
          </span>
          <span class="field">
            <label for="landing-color">Colores</label>
            <select id="landing-color" value={form.color} onChange={(e) => set('color', e.currentTarget.value)}>
              <option value="">Automático</option>
              {COLORS.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </span>
          <span class="field">
            <label for="landing-longitud">Longitud</label>
            <select
              id="landing-longitud"
              value={form.longitud}
              onChange={(e) => set('longitud', e.currentTarget.value)}
            >
              <option value="corta">Corta</option>
              <option value="media">Media</option>
              <option value="larga">Larga</option>
            </select>
          </span>
        </div>
        <SaveBar busy={save.busy} error={save.error} saved={save.saved} label="Crear la landing" />
      </form>
    </Section>
  );
}
