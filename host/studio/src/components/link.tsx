import type { ComponentChildren } from 'preact';
import { BASE, navigate } from '../lib/router.js';

/** An ordinary link (opens in a new tab, copies) that navigates inside the console without reloading. */
export function Link({
  to,
  children,
  class: className,
  current,
}: {
  to: string;
  children: ComponentChildren;
  class?: string;
  current?: boolean;
}) {
  const onClick = (e: MouseEvent) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
  return (
    <a href={BASE + to} onClick={onClick} class={className} aria-current={current ? 'page' : undefined}>
      {children}
    </a>
  );
}
