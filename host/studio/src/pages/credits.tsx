import { api, seg } from '../api/client.js';
import type { Account, Pool } from '../api/types.js';
import { BarChart, dayLabel, lastDays } from '../components/bar-chart.js';
import { EmptyState, ErrorNotice, Loading } from '../components/notice.js';
import { PageHeader, Section } from '../components/page.js';
import { formatBytes, formatDateTime, formatNumber, formatPercent } from '../lib/format.js';
import { useLoad } from '../lib/use-load.js';
import { TableWrap } from '../components/table-wrap.js';

/** The most the pool route gives at once. */
const MOVEMENTS = 100;

const REASON: Record<string, string> = {
  consumo: 'Consumo',
  reembolso: 'Reembolso',
  recarga: 'Recarga',
  ajuste: 'Ajuste',
};

/** The credit pool of the space's account: balance, movements and a chart of credits used per day. */
export function CreditsPage({ space }: { space: string }) {
  const pool = useLoad(async () => {
    const { cuenta } = await api<{ cuenta: Account }>('GET', `/companies/${seg(space)}/cuenta`);
    const bolsa = await api<Pool>('GET', `/cuentas/${seg(cuenta.id)}/bolsa`, { query: { movimientos: MOVEMENTS } });
    return { cuenta, bolsa };
  }, [space]);
  const movements = pool.data?.bolsa.movimientos ?? [];

  return (
    <>
      <PageHeader
        title="Créditos"
        intro="La bolsa de créditos de la cuenta del espacio. Cada pregunta respondida cuesta 1 crédito; las respuestas de la caché, 0."
      />
      <ErrorNotice error={pool.error} />
      {pool.loading && !pool.data ? (
        <Loading />
      ) : (
        pool.data && (
          <>
            <div class="stats">
              <div class="stat">
                <span class="stat-label">Saldo</span>
                <span class="stat-value" data-testid="saldo">
                  {formatNumber(pool.data.bolsa.saldo)}
                </span>
              </div>
              <div class="stat">
                <span class="stat-label">Cuenta</span>
                <span class="stat-value small">
                  <code>{pool.data.cuenta.id}</code>
                </span>
              </div>
              <div class="stat">
                <span class="stat-label">Estado</span>
                <span class="stat-value small">
                  {pool.data.cuenta.estado_pago === 'al_dia'
                    ? 'Al día'
                    : pool.data.cuenta.estado_pago === 'impagada'
                      ? 'Pago pendiente'
                      : 'Suspendida'}
                </span>
              </div>
            </div>
            <Section title="Almacenamiento">
              <StorageUse storage={pool.data.cuenta.almacenamiento} />
            </Section>
            <Section title="Consumo por día">
              {movements.length === 0 ? (
                <EmptyState title="Sin movimientos todavía." />
              ) : (
                <BarChart
                  title="Créditos consumidos por día (últimos 14 días)"
                  unit="créditos"
                  bars={usedPerDay(movements)}
                />
              )}
            </Section>
            <Section title="Movimientos">
              {movements.length === 0 ? (
                <EmptyState title="Sin movimientos todavía." />
              ) : (
                <>
                  <TableWrap label="Movimientos">
                    <table class="table stack">
                      <caption class="sr-only">Movimientos de la bolsa, el más reciente primero</caption>
                      <thead>
                        <tr>
                          <th scope="col">Fecha</th>
                          <th scope="col">Motivo</th>
                          <th scope="col">Espacio y ruta</th>
                          <th scope="col" class="num">
                            Créditos
                          </th>
                          <th scope="col" class="num">
                            Saldo
                          </th>
                        </tr>
                      </thead>
                      <tbody>
                        {movements.map((m) => (
                          <tr key={m.id}>
                            <td data-label="Fecha">{formatDateTime(m.fecha)}</td>
                            <td data-label="Motivo">{REASON[m.motivo] ?? m.motivo}</td>
                            <td data-label="Espacio y ruta">
                              {[m.espacio, m.ruta].filter(Boolean).join(' · ') || '—'}
                            </td>
                            <td data-label="Créditos" class={m.delta < 0 ? 'num neg' : 'num pos'}>
                              {m.delta > 0 ? '+' : ''}
                              {formatNumber(m.delta)}
                            </td>
                            <td data-label="Saldo" class="num">
                              {formatNumber(m.saldo)}
                            </td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </TableWrap>
                </>
              )}
            </Section>
          </>
        )
      )}
    </>
  );
}

/**
 * What the account's spaces store against its quota: past it, uploads are refused (413 for bytes, 422 for
 * documents) until documents are deleted or the platform raises the quota.
 */
function StorageUse({ storage }: { storage: Account['almacenamiento'] }) {
  const used = (value: number, max: number | null, format: (n: number) => string) =>
    max === null
      ? `${format(value)} (sin límite)`
      : `${format(value)} de ${format(max)} (${formatPercent(max > 0 ? value / max : 1)})`;
  const full =
    (storage.max_bytes !== null && storage.bytes >= storage.max_bytes) ||
    (storage.max_documentos !== null && storage.documentos >= storage.max_documentos);
  return (
    <>
      <div class="stats">
        <div class="stat">
          <span class="stat-label">Espacio usado</span>
          <span class="stat-value small" data-testid="almacenamiento-bytes">
            {used(storage.bytes, storage.max_bytes, formatBytes)}
          </span>
        </div>
        <div class="stat">
          <span class="stat-label">Documentos</span>
          <span class="stat-value small" data-testid="almacenamiento-documentos">
            {used(storage.documentos, storage.max_documentos, formatNumber)}
          </span>
        </div>
      </div>
      <p class="muted">
        {full
          ? 'La cuenta ha llegado a su cuota: las subidas nuevas se rechazan hasta que elimines documentos o la administración la amplíe.'
          : 'La cuota es de toda la cuenta (todos sus espacios juntos). Sustituir un documento solo cuenta la diferencia de tamaño.'}
      </p>
    </>
  );
}

/** Credits spent per calendar day (consumption minus refunds) over the last two weeks, quiet days included. */
function usedPerDay(movements: Pool['movimientos']): { label: string; value: number }[] {
  const perDay = new Map<string, number>();
  for (const m of movements) {
    if (m.motivo !== 'consumo' && m.motivo !== 'reembolso') continue;
    const day = m.fecha.slice(0, 10);
    perDay.set(day, (perDay.get(day) ?? 0) - m.delta);
  }
  return lastDays(14).map((day) => ({ label: dayLabel(day), value: Math.max(0, perDay.get(day) ?? 0) }));
}
