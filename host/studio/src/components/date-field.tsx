/** A labelled day picker of a filter form (`YYYY-MM-DD`, empty for none). */
export function DateField(props: { id: string; label: string; value: string; onChange: (value: string) => void }) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <input id={props.id} type="date" value={props.value} onChange={(e) => props.onChange(e.currentTarget.value)} />
    </div>
  );
}
