import type { ComponentChildren } from 'preact';
import { CopyButton } from './copy-button.js';

/**
 * A secret the service shows once (a new key, a webhook's signing secret): the value, a copy button and a button
 * that hides it once the owner stored it. `children` says what it is for.
 */
export function SecretOnce({
  title,
  value,
  testId,
  copyLabel,
  doneLabel,
  onDone,
  children,
}: {
  title: string;
  value: string;
  testId: string;
  copyLabel: string;
  doneLabel: string;
  onDone: () => void;
  children: ComponentChildren;
}) {
  return (
    <section class="card secret" aria-labelledby={`${testId}-titulo`}>
      <h2 id={`${testId}-titulo`}>{title}</h2>
      <p>{children}</p>
      <p class="secret-value">
        <code data-testid={testId}>{value}</code>
      </p>
      <div class="row">
        <CopyButton text={value} label={copyLabel} />
        <button type="button" class="button subtle" onClick={onDone}>
          {doneLabel}
        </button>
      </div>
    </section>
  );
}
