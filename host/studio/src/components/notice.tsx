import type { ComponentChildren } from 'preact';
import { messageOf } from '../api/errors.js';

/** An error from the API, with the API's own `detail` text. Announced by screen readers as it appears. */
export function ErrorNotice({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  return (
    <div class="notice notice-error" role="alert">
      {title && <strong>{title} </strong>}
      {messageOf(error)}
    </div>
  );
}

export function SuccessNotice({ children }: { children: ComponentChildren }) {
  if (!children) return null;
  return (
    <div class="notice notice-ok" role="status">
      {children}
    </div>
  );
}

export function Loading({ label = 'Cargando…' }: { label?: string }) {
  return (
    <p class="loading" role="status">
      {label}
    </p>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <div class="empty">
      <p class="empty-title">{title}</p>
      {children && <div class="empty-body">{children}</div>}
    </div>
  );
}
