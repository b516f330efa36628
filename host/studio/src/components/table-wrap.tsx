import type { ComponentChildren } from 'preact';

/**
 * A wide table's scroll container. It can take keyboard focus (so the table can be scrolled without a mouse) and is
 * named for screen readers; on phones `.stack` tables turn into one block per row instead of scrolling.
 */
export function TableWrap({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <div class="table-wrap" role="region" aria-label={`Tabla: ${label}`} tabIndex={0}>
      {children}
    </div>
  );
}
