import { useState } from 'preact/hooks';

/** State of a form that saves through the API: busy flag, last error and a confirmation message. */
export function useSave() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const run = async (work: () => Promise<string>) => {
    setBusy(true);
    setError(null);
    setSaved(null);
    try {
      setSaved(await work());
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, saved, run };
}
