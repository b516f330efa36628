/**
 * Advice of commands to run (`cerebro admin respaldo` on PostgreSQL or S3) for a terminal: each list one command per
 * line, indented, so every line can be copied and run as printed (the generic `field: a, b` form joined two
 * commands with a comma); a nested advice indented under its field; anything else as `field: value`.
 */
export function formatAdvice(value: object, indent = ''): string {
  return Object.entries(value)
    .map(([field, v]) => {
      if (Array.isArray(v)) return `${indent}${field}:${v.map((line) => `\n${indent}  ${String(line)}`).join('')}`;
      if (v && typeof v === 'object') return `${indent}${field}:\n${formatAdvice(v, `${indent}  `)}`;
      return `${indent}${field}: ${String(v)}`;
    })
    .join('\n');
}
