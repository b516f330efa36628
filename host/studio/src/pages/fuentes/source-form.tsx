import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { Source, SourceKind } from '../../api/module-types.js';
import { Section } from '../../components/page.js';
import { SaveBar } from '../../components/save-bar.js';
import { fromLines } from '../../lib/lines.js';
import { useSave } from '../../lib/use-save.js';

export const KIND_LABEL: Record<SourceKind, string> = {
  url: 'Una página',
  sitio: 'Un sitio (rastreo)',
  sitemap: 'Las páginas de un sitemap',
  feed: 'Un feed RSS o Atom',
  lista: 'Una lista de páginas',
};

const ADDRESS_LABEL: Record<Exclude<SourceKind, 'lista'>, string> = {
  url: 'Dirección de la página',
  sitio: 'Página de inicio del rastreo',
  sitemap: 'Dirección del sitemap',
  feed: 'Dirección del feed',
};

/** `POST /fuentes` with only the fields that apply to the kind (the module refuses the others with a 422). */
export function sourceBody(form: SourceFormState): Record<string, unknown> {
  const body: Record<string, unknown> = { tipo: form.tipo, lanzar: form.lanzar };
  if (form.nombre.trim()) body.nombre = form.nombre.trim();
  if (form.tipo === 'lista') body.urls = fromLines(form.urls);
  else body.url = form.url.trim();
  if (form.tipo === 'sitio') {
    if (form.prefijo.trim()) body.prefijo = form.prefijo.trim();
    if (form.profundidad !== '') body.profundidad = Number(form.profundidad);
    body.mismo_origen = form.mismoOrigen;
  }
  if (form.maxPaginas !== '') body.max_paginas = Number(form.maxPaginas);
  if (form.cadaHoras !== '') body.cada_horas = Number(form.cadaHoras);
  return body;
}

interface SourceFormState {
  tipo: SourceKind;
  url: string;
  urls: string;
  nombre: string;
  prefijo: string;
  profundidad: string;
  maxPaginas: string;
  mismoOrigen: boolean;
  cadaHoras: string;
  lanzar: boolean;
}

const EMPTY: SourceFormState = {
  tipo: 'url',
  url: '',
  urls: '',
  nombre: '',
  prefijo: '',
  profundidad: '',
  maxPaginas: '',
  mismoOrigen: true,
  cadaHoras: '',
  lanzar: true,
};

/** The form for a new source: the address fields and options change with the kind. */
export function SourceForm({ base, onCreated }: { base: string; onCreated: (source: Source) => void }) {
  const [form, setForm] = useState<SourceFormState>(EMPTY);
  const save = useSave();
  const set = <K extends keyof SourceFormState>(key: K, value: SourceFormState[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const submit = (e: Event) => {
    e.preventDefault();
    void save.run(async () => {
      const created = await api<Source>('POST', `${base}/fuentes`, { json: sourceBody(form) });
      setForm({ ...EMPTY, tipo: form.tipo });
      onCreated(created);
      return form.lanzar ? `Fuente «${created.nombre}» creada y lanzada.` : `Fuente «${created.nombre}» creada.`;
    });
  };
  return (
    <Section title="Nueva fuente">
      <form class="form" onSubmit={submit}>
        <label for="fuente-tipo">Tipo</label>
        <select id="fuente-tipo" value={form.tipo} onChange={(e) => set('tipo', e.currentTarget.value as SourceKind)}>
          {(Object.keys(KIND_LABEL) as SourceKind[]).map((k) => (
            <option key={k} value={k}>
              {KIND_LABEL[k]}
            </option>
          ))}
        </select>
        {form.tipo === 'lista' ? (
          <>
            <label for="fuente-urls">Direcciones (una por línea, hasta 500)</label>
            <textarea
              id="fuente-urls"
              required
              rows={4}
              placeholder="https://"
              value={form.urls}
              onInput={(e) => set('urls', e.currentTarget.value)}
            />
          </>
        ) : (
          <>
            <label for="fuente-url">{ADDRESS_LABEL[form.tipo]}</label>
            <input
              id="fuente-url"
              type="url"
              required
              placeholder="https://"
              value={form.url}
              onInput={(e) => set('url', e.currentTarget.value)}
            />
          </>
        )}
        <label for="fuente-nombre">Nombre (opcional)</label>
        <input
          id="fuente-nombre"
          maxLength={200}
          value={form.nombre}
          onInput={(e) => set('nombre', e.currentTarget.value)}
        />
        {form.tipo === 'sitio' && (
          <fieldset>
            <legend>Alcance del rastreo</legend>
            <label for="fuente-prefijo">Solo rutas que empiezan por</label>
            <input
              id="fuente-prefijo"
              placeholder="/"
              maxLength={500}
              value={form.prefijo}
              onInput={(e) => set('prefijo', e.currentTarget.value)}
            />
            <label for="fuente-profundidad">Profundidad (saltos de enlace desde el inicio)</label>
            <input
              id="fuente-profundidad"
              type="number"
              min={0}
              max={10}
              placeholder="2"
              value={form.profundidad}
              onInput={(e) => set('profundidad', e.currentTarget.value)}
            />
            <label class="check">
              <input
                type="checkbox"
                checked={!form.mismoOrigen}
                onChange={(e) => set('mismoOrigen', !e.currentTarget.checked)}
              />{' '}
              Seguir también subdominios
            </label>
          </fieldset>
        )}
        <label for="fuente-paginas">Páginas por ejecución (máximo)</label>
        <input
          id="fuente-paginas"
          type="number"
          min={1}
          placeholder="100"
          value={form.maxPaginas}
          onInput={(e) => set('maxPaginas', e.currentTarget.value)}
        />
        <label for="fuente-cada">Repetir cada (horas, opcional)</label>
        <input
          id="fuente-cada"
          type="number"
          min={1}
          max={8760}
          aria-describedby="fuente-cada-ayuda"
          value={form.cadaHoras}
          onInput={(e) => set('cadaHoras', e.currentTarget.value)}
        />
        <p id="fuente-cada-ayuda" class="hint">
          Vacío: solo se ejecuta cuando la lanzas.
        </p>
        <label class="check">
          <input type="checkbox" checked={form.lanzar} onChange={(e) => set('lanzar', e.currentTarget.checked)} />{' '}
          Lanzarla ahora
        </label>
        <SaveBar busy={save.busy} error={save.error} saved={save.saved} label="Crear la fuente" />
      </form>
    </Section>
  );
}
