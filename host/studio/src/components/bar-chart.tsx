import { formatNumber } from '../lib/format.js';

export interface Bar {
  label: string;
  value: number;
}

const WIDTH = 640;
const HEIGHT = 200;
const TOP = 20;
const BOTTOM = 36;
const LEFT = 40;

/**
 * A bar chart drawn as inline SVG (no chart library: a few rectangles). The SVG is described by its title and
 * the same numbers are given as a table for screen readers, so the chart itself is decorative to them.
 */
export function BarChart({ bars, title, unit }: { bars: Bar[]; title: string; unit: string }) {
  const max = niceMax(Math.max(0, ...bars.map((b) => b.value)));
  const plotWidth = WIDTH - LEFT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const slot = plotWidth / Math.max(1, bars.length);
  const barWidth = Math.max(2, Math.min(40, slot * 0.65));
  // Four dates at most (first, last and two between): they stay legible when the chart shrinks on a phone.
  const labelled = new Set([0, 1, 2, 3].map((k) => Math.round((k * (bars.length - 1)) / 3)));
  const y = (v: number) => TOP + plotHeight - (plotHeight * v) / max;
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={`${title}: gráfico de barras`}>
        {(Number.isInteger(max / 2) ? [0, max / 2, max] : [0, max]).map((tick) => (
          <g key={tick}>
            <line x1={LEFT} x2={WIDTH} y1={y(tick)} y2={y(tick)} class={tick === 0 ? 'chart-axis' : 'chart-grid'} />
            <text x={LEFT - 6} y={y(tick) + 4} text-anchor="end" class="chart-label">
              {formatNumber(tick)}
            </text>
          </g>
        ))}
        {bars.map((bar, i) => {
          const h = y(0) - y(Math.max(0, bar.value));
          const x = LEFT + i * slot + (slot - barWidth) / 2;
          return (
            <g key={bar.label}>
              {h > 0 && (
                <rect x={x} y={y(0) - h} width={barWidth} height={h} rx={2} class="chart-bar">
                  <title>{`${bar.label}: ${formatNumber(bar.value)} ${unit}`}</title>
                </rect>
              )}
              {labelled.has(i) && (
                <text
                  x={LEFT + i * slot + slot / 2}
                  y={HEIGHT - 6}
                  text-anchor={i === 0 ? 'start' : i === bars.length - 1 ? 'end' : 'middle'}
                  class="chart-label"
                >
                  {bar.label}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption>
        <details>
          <summary>{title}: ver los datos</summary>
          <table class="table compact">
            <thead>
              <tr>
                <th scope="col">Día</th>
                <th scope="col" class="num">
                  {unit}
                </th>
              </tr>
            </thead>
            <tbody>
              {bars.map((b) => (
                <tr key={b.label}>
                  <td>{b.label}</td>
                  <td class="num">{formatNumber(b.value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      </figcaption>
    </figure>
  );
}

/** A round top for the scale (1, 2, 5 × 10ⁿ) so the grid lines read as plain numbers. */
function niceMax(value: number): number {
  if (value <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 5, 10].find((m) => m * power >= value)!;
  return step * power;
}

/** The last `days` calendar days (UTC, oldest first) as `YYYY-MM-DD`, so quiet days show as empty bars. */
export function lastDays(days: number, now = new Date()): string[] {
  const out: string[] = [];
  for (let i = days - 1; i >= 0; i--) out.push(new Date(now.getTime() - i * 86_400_000).toISOString().slice(0, 10));
  return out;
}

/** `YYYY-MM-DD` → `24/11`, the short label under a bar. */
export const dayLabel = (day: string): string => `${day.slice(8, 10)}/${day.slice(5, 7)}`;
