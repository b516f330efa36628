import { STATE_LABEL, STATE_TONE } from '../lib/records.js';

/** The state of a module record (a source run, a landing version, a ficha) as a coloured label. */
export function StateBadge({ state }: { state: string | null }) {
  if (!state) return null;
  return <span class={`badge ${STATE_TONE[state] ?? ''}`}>{STATE_LABEL[state] ?? state.replace(/_/g, ' ')}</span>;
}
