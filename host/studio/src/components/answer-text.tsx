import type { JSX } from 'preact';

/**
 * The engine's light Markdown, drawn as elements (never as HTML, so no text from a document can become markup):
 * ``` fenced blocks, `inline code`, and the [n] markers that point into the sources.
 */
export function AnswerText({ text }: { text: string }) {
  const parts = text.split(/```[^\n]*\n?([\s\S]*?)```/g);
  return (
    <div class="answer-text">
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <pre key={i} class="code-block">
            <code>{part.replace(/\n$/, '')}</code>
          </pre>
        ) : (
          <p key={i}>{inline(part)}</p>
        ),
      )}
    </div>
  );
}

function inline(text: string): (string | JSX.Element)[] {
  const out: (string | JSX.Element)[] = [];
  const pattern = /`([^`\n]+)`|\[(\d+)\]/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index! > last) out.push(text.slice(last, match.index));
    if (match[1] !== undefined) out.push(<code key={match.index}>{match[1]}</code>);
    else
      out.push(
        <span key={match.index} class="cite" title={`Fuente ${match[2]}`}>
          [{match[2]}]
        </span>,
      );
    last = match.index! + match[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}
