import { useRef, useState } from 'preact/hooks';

/**
 * A file input drawn as a button in Spanish (the browser's own button speaks the browser's language) that keeps
 * the real input focusable, so it works by keyboard and with screen readers; the chosen name is shown beside it.
 */
export function FilePicker({
  id,
  label,
  accept,
  multiple,
  disabled,
  onFiles,
}: {
  id: string;
  label: string;
  accept?: string;
  multiple?: boolean;
  disabled?: boolean;
  onFiles: (files: File[]) => void;
}) {
  const [chosen, setChosen] = useState<string>('');
  const input = useRef<HTMLInputElement>(null);
  return (
    <div class="file-picker">
      <input
        id={id}
        ref={input}
        type="file"
        class="visually-hidden-input"
        accept={accept}
        multiple={multiple}
        disabled={disabled}
        onChange={(e) => {
          const files = [...(e.currentTarget.files ?? [])];
          setChosen(files.map((f) => f.name).join(', '));
          onFiles(files);
          // The same file chosen again (after fixing it) must fire change again.
          e.currentTarget.value = '';
        }}
      />
      <label for={id} class="button">
        {label}
      </label>
      <span class="muted file-name">{chosen || 'Ningún archivo elegido'}</span>
    </div>
  );
}
