import { useState } from 'preact/hooks';
import { api, seg } from '../api/client.js';
import { fieldIssues } from '../api/errors.js';
import type { Product } from '../api/types.js';
import { EmptyState, ErrorNotice, Loading, SuccessNotice } from '../components/notice.js';
import { PageHeader, Section } from '../components/page.js';
import { FilePicker } from '../components/file-picker.js';
import { formatNumber } from '../lib/format.js';
import { formatMoney } from '../lib/money.js';
import { plural } from '../lib/plural.js';
import { useLoad } from '../lib/use-load.js';
import { TableWrap } from '../components/table-wrap.js';
import { ConfirmAction } from '../components/confirm-action.js';
import { ProductEditor } from './catalog/product-editor.js';
import { useCan } from '../state/role.js';

interface ImportResult {
  importados: number;
  creados: number;
  actualizados: number;
  eliminados: number;
  errores: { linea: number; mensaje: string }[];
  simulado?: boolean;
}

type Mode = 'combinar' | 'reemplazar';

/**
 * The ventas catalog: one product added, edited or deleted at a time, and CSV import with a preview of every bad line
 * before anything is stored.
 */
export function CatalogPage({ space }: { space: string }) {
  const products = useLoad(
    () =>
      api<{ productos: Product[]; total: number }>('GET', `/mod/ventas/${seg(space)}/productos`, {
        query: { limite: 200 },
      }),
    [space],
  );
  // The product being added ('nuevo') or edited, and what the last change did.
  const [editing, setEditing] = useState<Product | 'nuevo' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [removeError, setRemoveError] = useState<unknown>(null);
  const currency = products.data?.productos[0]?.moneda ?? 'EUR';
  // A `consulta` member reads the catalog; adding, editing, deleting and importing are not offered to them.
  const canEdit = useCan(space, 'edita');
  const remove = async (p: Product) => {
    setRemoveError(null);
    try {
      await api('DELETE', `/mod/ventas/${seg(space)}/productos/${seg(p.id)}`);
      setNotice(`Se eliminó «${p.nombre}».`);
      if (editing !== 'nuevo' && editing?.id === p.id) setEditing(null);
      void products.reload();
    } catch (err) {
      setRemoveError(err);
    }
  };
  return (
    <>
      <PageHeader
        title="Catálogo"
        intro="Los productos con los que cotiza el agente de ventas. Todas las cifras de sus respuestas salen de aquí."
      >
        {canEdit && editing === null && (
          <button
            type="button"
            class="button primary"
            onClick={() => {
              setNotice(null);
              setEditing('nuevo');
            }}
          >
            Añadir producto
          </button>
        )}
      </PageHeader>
      {editing !== null && (
        <ProductEditor
          key={editing === 'nuevo' ? '' : editing.id}
          space={space}
          product={editing === 'nuevo' ? null : editing}
          currency={currency}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            setNotice(`Se guardó «${saved.nombre}».`);
            setEditing(null);
            void products.reload();
          }}
        />
      )}
      <SuccessNotice>{notice}</SuccessNotice>
      {canEdit && <CsvImport space={space} onImported={() => void products.reload()} />}
      <Section title="Productos">
        <ErrorNotice error={products.error} />
        <ErrorNotice error={removeError} title="No se eliminó." />
        {products.loading && !products.data ? (
          <Loading />
        ) : !products.data || products.data.productos.length === 0 ? (
          <EmptyState title="El catálogo está vacío.">
            {canEdit ? 'Añade un producto o importa un CSV para empezar.' : 'Aún no hay productos que consultar.'}
          </EmptyState>
        ) : (
          <TableWrap label="Productos">
            <table class="table stack">
              <caption class="sr-only">{products.data.total} productos</caption>
              <thead>
                <tr>
                  <th scope="col">Id</th>
                  <th scope="col">Nombre</th>
                  <th scope="col" class="num">
                    Precio
                  </th>
                  <th scope="col" class="num">
                    Stock
                  </th>
                  <th scope="col">
                    <span class="sr-only">Acciones</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {products.data.productos.map((p) => (
                  <tr key={p.id}>
                    <td data-label="Id">
                      <code>{p.id}</code>
                    </td>
                    <th scope="row">{p.nombre}</th>
                    <td data-label="Precio" class="num">
                      {formatMoney(p.precio, p.moneda)}
                    </td>
                    <td data-label="Stock" class="num">
                      {formatNumber(p.stock)}
                    </td>
                    <td class="actions">
                      {canEdit && (
                        <>
                          <button
                            type="button"
                            class="button"
                            onClick={() => {
                              setNotice(null);
                              setEditing(p);
                            }}
                          >
                            Editar<span class="sr-only"> {p.nombre}</span>
                          </button>
                          <ConfirmAction
                            action="Eliminar"
                            confirm="Sí, eliminar"
                            group={`Confirmar eliminación de ${p.nombre}`}
                            target={p.nombre}
                            onConfirm={() => remove(p)}
                          />
                        </>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}
      </Section>
    </>
  );
}

function CsvImport({ space, onImported }: { space: string; onImported: () => void }) {
  const [csv, setCsv] = useState<{ name: string; text: string } | null>(null);
  const [mode, setMode] = useState<Mode>('combinar');
  const [preview, setPreview] = useState<ImportResult | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const path = `/mod/ventas/${seg(space)}/productos/importar`;

  const check = async (file: { name: string; text: string }, chosenMode: Mode) => {
    setBusy(true);
    setError(null);
    setDone(null);
    setPreview(null);
    try {
      setPreview(await api<ImportResult>('POST', path, { json: { csv: file.text, modo: chosenMode, simular: true } }));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const pick = async (file: File | undefined) => {
    if (!file) return;
    const chosen = { name: file.name, text: await file.text() };
    setCsv(chosen);
    await check(chosen, mode);
  };

  const commit = async () => {
    if (!csv) return;
    setBusy(true);
    setError(null);
    try {
      const r = await api<ImportResult>('POST', path, { json: { csv: csv.text, modo: mode } });
      setDone(
        `Importados ${plural(r.importados, 'producto', 'productos')}: ${plural(r.creados, 'nuevo', 'nuevos')}, ${plural(r.actualizados, 'actualizado', 'actualizados')}${r.eliminados ? `, ${plural(r.eliminados, 'eliminado', 'eliminados')}` : ''}.`,
      );
      setPreview(null);
      setCsv(null);
      onImported();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const issues = preview?.errores ?? fieldIssues(error).map((i) => ({ linea: Number(i.loc[2] ?? 0), mensaje: i.msg }));
  return (
    <Section title="Importar desde CSV">
      <p class="hint">
        Columnas: id, nombre, descripcion, precio, moneda, stock, envio (por ejemplo <code>Bogotá=8000|Cali=9000</code>
        ). Separador coma o punto y coma.
      </p>
      <div class="form">
        <FilePicker
          id="csv-archivo"
          label="Elegir archivo CSV"
          accept=".csv,text/csv,text/plain"
          onFiles={(files) => void pick(files[0])}
        />
        <fieldset>
          <legend>Qué hacer con el catálogo actual</legend>
          <label class="check">
            <input
              type="radio"
              name="modo"
              checked={mode === 'combinar'}
              onChange={() => {
                setMode('combinar');
                if (csv) void check(csv, 'combinar');
              }}
            />{' '}
            Combinar: crear o sustituir por id y conservar el resto
          </label>
          <label class="check">
            <input
              type="radio"
              name="modo"
              checked={mode === 'reemplazar'}
              onChange={() => {
                setMode('reemplazar');
                if (csv) void check(csv, 'reemplazar');
              }}
            />{' '}
            Reemplazar: dejar solo los productos del archivo
          </label>
        </fieldset>
      </div>
      {busy && <Loading label="Revisando…" />}
      {preview && (
        <div class="preview" role="status">
          <p>
            <strong>{csv?.name}</strong>: {plural(preview.importados, 'línea correcta', 'líneas correctas')} →{' '}
            {plural(preview.creados, 'producto nuevo', 'productos nuevos')},{' '}
            {plural(preview.actualizados, 'actualizado', 'actualizados')}
            {preview.eliminados ? `, ${plural(preview.eliminados, 'se eliminaría', 'se eliminarían')}` : ''}.
          </p>
        </div>
      )}
      {issues.length > 0 && (
        <div class="notice notice-error" role="alert">
          <p>
            <strong>
              {issues.length === 1 ? 'Hay 1 línea con errores' : `Hay ${issues.length} líneas con errores`}.
            </strong>{' '}
            Corrige el archivo y vuelve a elegirlo; no se importó nada.
          </p>
          <TableWrap label="Líneas con errores">
            <table class="table compact" data-testid="lineas-malas">
              <thead>
                <tr>
                  <th scope="col" class="num">
                    Línea
                  </th>
                  <th scope="col">Problema</th>
                </tr>
              </thead>
              <tbody>
                {issues.map((i, n) => (
                  <tr key={n}>
                    <td class="num">{i.linea || '—'}</td>
                    <td>{i.mensaje}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        </div>
      )}
      {!issues.length && <ErrorNotice error={error} />}
      <SuccessNotice>{done}</SuccessNotice>
      {preview && preview.errores.length === 0 && preview.importados > 0 && (
        <button type="button" class="button primary" disabled={busy} onClick={() => void commit()}>
          Importar {plural(preview.importados, 'producto', 'productos')}
        </button>
      )}
    </Section>
  );
}
