import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/** The first page drawn after the document loaded keeps the browser's own focus (so Tab reaches the skip link). */
let firstPageShown = false;

/** After signing in the sign-in form is gone: the next page's title takes focus, as after a navigation. */
export function focusNextPageTitle(): void {
  firstPageShown = true;
}

/**
 * A page's title and intro. After a navigation inside the console the heading takes focus, so keyboard and
 * screen-reader users land on the new content (a single-page app does not reload the page for them).
 */
export function PageHeader({
  title,
  intro,
  children,
}: {
  title: string;
  intro?: ComponentChildren;
  children?: ComponentChildren;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Cerebro Studio`;
    if (firstPageShown) heading.current?.focus({ preventScroll: false });
    firstPageShown = true;
  }, [title]);
  return (
    <header class="page-header">
      <div>
        <h1 tabIndex={-1} ref={heading}>
          {title}
        </h1>
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
