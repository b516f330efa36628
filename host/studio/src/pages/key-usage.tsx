import { useEffect } from 'preact/hooks';
import { api, seg } from '../api/client.js';
import type { KeyRecord } from '../api/types.js';
import { BarChart, dayLabel } from '../components/bar-chart.js';
import { EmptyState, ErrorNotice, Loading } from '../components/notice.js';
import { Section } from '../components/page.js';
import { formatDateTime, formatNumber } from '../lib/format.js';
import { useLoad } from '../lib/use-load.js';
import { TableWrap } from '../components/table-wrap.js';

interface Usage {
  llamadas?: number;
  ultimo_uso?: string | null;
  por_ruta?: Record<string, number> | { ruta: string; llamadas: number }[];
  por_dia?: { dia: string; llamadas: number }[];
}

/** Calls of one key: per route (table) and per day (chart), from GET /tokens/{id}/uso. */
export function KeyUsage({ record }: { record: KeyRecord }) {
  const usage = useLoad(() => api<Usage>('GET', `/tokens/${seg(record.id)}/uso`, { query: { dias: 30 } }), [record.id]);
  // The usage opens below the table: bring it into view for whoever asked for it.
  useEffect(() => {
    document.getElementById('uso-clave-titulo')?.scrollIntoView({ block: 'nearest' });
  }, [record.id]);
  const routes = normaliseRoutes(usage.data?.por_ruta ?? record.por_ruta ?? {});
  const days = (usage.data?.por_dia ?? []).map((d) => ({ label: dayLabel(d.dia), value: d.llamadas }));
  return (
    <Section title={`Uso de «${record.nombre}»`} id="uso-clave">
      <ErrorNotice error={usage.error} />
      {usage.loading && !usage.data ? (
        <Loading />
      ) : (
        <>
          <p>
            {formatNumber(usage.data?.llamadas ?? record.llamadas ?? 0)} llamadas · último uso{' '}
            {usage.data?.ultimo_uso || record.ultimo_uso
              ? formatDateTime(usage.data?.ultimo_uso ?? record.ultimo_uso ?? null)
              : 'nunca'}
          </p>
          {days.length > 0 && <BarChart title="Llamadas por día (últimos 30 días)" unit="llamadas" bars={days} />}
          {routes.length === 0 ? (
            <EmptyState title="Esta clave todavía no se ha usado." />
          ) : (
            <TableWrap label="Llamadas por ruta">
              <table class="table compact">
                <caption>Llamadas por ruta</caption>
                <thead>
                  <tr>
                    <th scope="col">Ruta</th>
                    <th scope="col" class="num">
                      Llamadas
                    </th>
                    <th scope="col" class="share-head">
                      <span class="sr-only">Proporción</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {routes.map((r) => (
                    <tr key={r.ruta}>
                      <td>
                        <code>{r.ruta}</code>
                      </td>
                      <td class="num">{formatNumber(r.llamadas)}</td>
                      <td class="share-cell" aria-hidden="true">
                        <svg class="share" viewBox="0 0 100 10" preserveAspectRatio="none">
                          <rect x="0" y="0" height="10" width={(100 * r.llamadas) / routes[0]!.llamadas} />
                        </svg>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
          )}
        </>
      )}
    </Section>
  );
}

function normaliseRoutes(value: Usage['por_ruta']): { ruta: string; llamadas: number }[] {
  const list = Array.isArray(value)
    ? value
    : Object.entries(value ?? {}).map(([ruta, llamadas]) => ({ ruta, llamadas }));
  return [...list].sort((a, b) => b.llamadas - a.llamadas);
}
