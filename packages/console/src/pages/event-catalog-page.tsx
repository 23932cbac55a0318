import type { EventCatalogEntry } from "@hireport/core/extend";
import { href, Layout, type PageContext } from "./layout";

/** The id of an event type's heading: `event-job-created`. */
export function eventAnchor(type: string): string {
  return `event-${type.replace(/[^a-z0-9]+/g, "-")}`;
}

/** JSON as the page shows it: two spaces a level. */
function pretty(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/**
 * Every webhook event type (`eventCatalog` of `@hireport/core`): what it means, an example body and
 * the JSON Schema of its envelope, each type under a heading its anchor links to. The blocks of JSON
 * are shown whole (no scrolling box, which a keyboard could not reach).
 */
export function EventCatalogPage({ ctx, events }: { ctx: PageContext; events: EventCatalogEntry[] }) {
  return (
    <Layout ctx={ctx} section="webhooks" title="Webhook events">
      <p>
        <a href={href(ctx, "/webhooks")}>All endpoints</a>
      </p>
      <p>
        Each delivery is a POST whose JSON body is an envelope: the event's <code>id</code>, <code>type</code>,{" "}
        <code>created_at</code>, <code>company_id</code>, <code>api_version</code> and its <code>data</code>. Events may
        arrive more than once or out of order: drop repeats by <code>id</code>.
      </p>
      <nav aria-labelledby="event-types">
        <h2 id="event-types">Event types</h2>
        <ul>
          {events.map((event) => (
            <li>
              <a href={`#${eventAnchor(event.type)}`}>
                <code>{event.type}</code>
              </a>{" "}
              {event.description}
            </li>
          ))}
        </ul>
      </nav>
      {events.map((event) => {
        const anchor = eventAnchor(event.type);
        return (
          <section aria-labelledby={anchor}>
            <h2 id={anchor}>
              <code>{event.type}</code>
            </h2>
            <p>{event.description}</p>
            <h3>Example body</h3>
            <pre class="whole">
              <code>{pretty(event.example)}</code>
            </pre>
            <details>
              <summary>
                JSON Schema of <code>{event.type}</code>
              </summary>
              <pre class="whole">
                <code>{pretty(event.schema)}</code>
              </pre>
            </details>
          </section>
        );
      })}
    </Layout>
  );
}
