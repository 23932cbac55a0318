import type { AuditRecord, Page } from "@hireport/core";
import { formatTime } from "./format";
import { href, Layout, type PageContext } from "./layout";

function detailText(details: AuditRecord["details"]): string {
  return Object.entries(details)
    .map(([name, value]) => `${name}: ${Array.isArray(value) ? value.join(", ") : String(value)}`)
    .join("; ");
}

export function AuditPage(props: { ctx: PageContext; page: Page<AuditRecord> }) {
  const { ctx, page } = props;
  return (
    <Layout ctx={ctx} section="audit" title="Audit log">
      <p>
        Who changed what, newest first: keys, webhook endpoints, deliveries sent again, candidates' data exported or
        erased.
      </p>
      <table>
        <caption class="visually-hidden">Changes, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Who</th>
            <th scope="col">What</th>
            <th scope="col">On</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {page.data.length === 0 ? (
            <tr>
              <td colSpan={5}>Nothing yet.</td>
            </tr>
          ) : null}
          {page.data.map((entry) => (
            <tr>
              <td>{formatTime(entry.createdAt)}</td>
              <td>
                {entry.actor.name}
                {entry.actor.type === "api_key" ? " (API key)" : ""}
              </td>
              <td>
                <code>{entry.action}</code>
              </td>
              <td>
                {entry.target.type} <code>{entry.target.id ?? ""}</code>
              </td>
              <td>{detailText(entry.details)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {page.nextCursor ? (
        <p>
          <a href={href(ctx, "/audit", new URLSearchParams({ cursor: page.nextCursor }))} rel="next">
            Older changes
          </a>
        </p>
      ) : null}
    </Layout>
  );
}
