const dateTime = new Intl.DateTimeFormat('es', { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat('es', { dateStyle: 'medium' });
const number = new Intl.NumberFormat('es');

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateTime.format(d);
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateOnly.format(d);
}

export function formatNumber(n: number | null | undefined): string {
  return n === null || n === undefined ? '—' : number.format(n);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${number.format(Math.round(bytes / 102.4) / 10)} KB`;
  return `${number.format(Math.round(bytes / (1024 * 102.4)) / 10)} MB`;
}

export function formatPercent(share: number): string {
  return `${Math.round(Math.max(0, Math.min(1, share)) * 100)} %`;
}
