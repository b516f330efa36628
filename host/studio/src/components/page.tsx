import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/**
 * A page's title and intro. The heading takes focus when the page opens, so keyboard and screen-reader users land
 * on the new content after following a link (a single-page app does not reload the page for them).
 */
export function PageHeader({ title, intro, children }: { title: string; intro?: ComponentChildren; children?: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Cerebro Studio`;
    heading.current?.focus({ preventScroll: false });
  }, [title]);
  return (
    <header class="page-header">
      <div>
        <h1 tabIndex={-1} ref={heading}>{title}</h1>
        {intro && <p class="intro">{intro}</p>}
      </div>
      {children && <div class="page-actions">{children}</div>}
    </header>
  );
}

export function Section({ title, children, id }: { title: string; children: ComponentChildren; id?: string }) {
  const headingId = `${id ?? title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-titulo`;
  return (
    <section class="card" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      {children}
    </section>
  );
}
