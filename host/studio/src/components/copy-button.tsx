import { useState } from 'preact/hooks';

/** Copies `text` to the clipboard and says so (to screen readers too). */
export function CopyButton({ text, label = 'Copiar' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState<'si' | 'no' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('si');
    } catch {
      setCopied('no');
    }
  };
  return (
    <span class="copy">
      <button type="button" class="button" onClick={copy}>
        {label}
      </button>
      <span role="status" class="copy-status">
        {copied === 'si'
          ? 'Copiada al portapapeles.'
          : copied === 'no'
            ? 'No se pudo copiar: selecciona el texto y cópialo a mano.'
            : ''}
      </span>
    </span>
  );
}
