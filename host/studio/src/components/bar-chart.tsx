import { formatNumber } from '../lib/format.js';

export interface Bar {
  label: string;
  value: number;
}

/**
 * A bar chart drawn as inline SVG (no chart library: a few rectangles). The SVG is described by its title and
 * the same numbers are given as a table for screen readers, so the chart itself is decorative to them.
 */
export function BarChart({ bars, title, unit }: { bars: Bar[]; title: string; unit: string }) {
  const width = 600;
  const height = 180;
  const top = 16;
  const bottom = 28;
  const max = Math.max(1, ...bars.map((b) => Math.abs(b.value)));
  const slot = width / Math.max(1, bars.length);
  const barWidth = Math.max(2, Math.min(48, slot * 0.7));
  const labelEvery = Math.ceil(bars.length / 8);
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`${title}: gráfico de barras`} preserveAspectRatio="none">
        <line x1="0" x2={width} y1={height - bottom} y2={height - bottom} class="chart-axis" />
        {bars.map((bar, i) => {
          const h = ((height - top - bottom) * Math.abs(bar.value)) / max;
          const x = i * slot + (slot - barWidth) / 2;
          return (
            <g key={bar.label}>
              <rect x={x} y={height - bottom - h} width={barWidth} height={h} class={bar.value < 0 ? 'chart-bar chart-bar-neg' : 'chart-bar'}>
                <title>{`${bar.label}: ${formatNumber(bar.value)} ${unit}`}</title>
              </rect>
              {i % labelEvery === 0 && (
                <text x={i * slot + slot / 2} y={height - 8} text-anchor="middle" class="chart-label">{bar.label}</text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption>
        <details>
          <summary>{title}: ver los datos</summary>
          <table class="table compact">
            <thead><tr><th scope="col">Periodo</th><th scope="col">{unit}</th></tr></thead>
            <tbody>{bars.map((b) => <tr key={b.label}><td>{b.label}</td><td class="num">{formatNumber(b.value)}</td></tr>)}</tbody>
          </table>
        </details>
      </figcaption>
    </figure>
  );
}
