/** Plain text of a job (its description, a cover letter) as paragraphs: blank lines part them, single line breaks stay. */
import { renderToString } from "preact-render-to-string";

export function Paragraphs({ text }: { text: string }) {
  const blocks = text
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter(Boolean);
  return (
    <>
      {blocks.map((block) => (
        <p>
          {block.split("\n").map((line, index) => (
            <>
              {index > 0 ? <br /> : null}
              {line}
            </>
          ))}
        </p>
      ))}
    </>
  );
}

/** The same paragraphs as an HTML string (escaped by preact), for the JobPosting's `description`. */
export function paragraphsHtml(text: string): string {
  return renderToString(<Paragraphs text={text} />);
}

/** A list of short texts, or nothing when it is empty. */
export function ItemList({ title, items }: { title: string; items: readonly string[] }) {
  if (items.length === 0) return null;
  return (
    <section>
      <h2>{title}</h2>
      <ul>
        {items.map((item) => (
          <li>{item}</li>
        ))}
      </ul>
    </section>
  );
}
