import type { ApiKeyRecord } from "@hireport/core";
import type { UsageDay, UsagePage } from "@hireport/core/extend";
import { ROUTES } from "@hireport/core/http";
import { formatTime } from "./format";
import { href, Layout, type PageContext } from "./layout";
import { UsageChart } from "./usage-chart";

/** The filters as the form sent them (text), to show them again. */
export interface UsageFilterValues {
  key: string;
  status: string;
  route: string;
  from: string;
  to: string;
}

const ROUTE_TEMPLATES = [...new Set(ROUTES.map((route) => route.path))];

/**
 * A day filter as a date input's value: a calendar day as typed, else empty (a date input holds
 * nothing else, and its `value` attribute may not either; the message above the form says what was
 * wrong).
 */
function dayValue(text: string): string {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(text) ? new Date(`${text}T00:00:00.000Z`) : null;
  return day && !Number.isNaN(day.getTime()) && day.toISOString().startsWith(text) ? text : "";
}

export function UsagePageView(props: {
  ctx: PageContext;
  days: UsageDay[];
  keys: ApiKeyRecord[];
  filters: UsageFilterValues;
  /** The filters as a query string (for the next page and the export), without the cursor. */
  filterQuery: URLSearchParams;
  page: UsagePage | null;
  error?: string | null;
}) {
  const { ctx, filters, page } = props;
  const keyNames = new Map(props.keys.map((key) => [key.id, key.name]));
  const next = new URLSearchParams(props.filterQuery);
  if (page?.nextCursor) next.set("cursor", page.nextCursor);
  return (
    <Layout ctx={ctx} section="usage" title="Usage">
      <section aria-labelledby="usage-chart">
        <h2 id="usage-chart">Requests per day</h2>
        <UsageChart days={props.days} />
      </section>
      <section aria-labelledby="usage-requests">
        <h2 id="usage-requests">Requests</h2>
        <form method="get" action={href(ctx, "/usage")}>
          <fieldset>
            <legend>Filter</legend>
            <label for="f-key">Key</label>
            <select id="f-key" name="key">
              <option value="">Every key</option>
              {props.keys.map((key) => (
                <option value={key.id} selected={filters.key === key.id}>
                  {key.name}
                </option>
              ))}
            </select>
            <label for="f-status">Status (a code such as 404, or a class such as 4xx)</label>
            <input id="f-status" type="text" name="status" value={filters.status} pattern="[1-5](xx|XX|[0-9]{2})" />
            <label for="f-route">Route</label>
            <input id="f-route" type="text" name="route" value={filters.route} list="f-routes" />
            <datalist id="f-routes">
              {ROUTE_TEMPLATES.map((route) => (
                <option value={route} />
              ))}
            </datalist>
            <label for="f-from">From (UTC day, inclusive)</label>
            <input id="f-from" type="date" name="from" value={dayValue(filters.from)} />
            <label for="f-to">To (UTC day, inclusive)</label>
            <input id="f-to" type="date" name="to" value={dayValue(filters.to)} />
            <p>
              <button type="submit">Show</button> <a href={href(ctx, "/usage")}>Clear</a>
            </p>
          </fieldset>
        </form>
        <p>
          <a href={href(ctx, "/usage/export.csv", props.filterQuery)} download>
            Download these requests as CSV
          </a>
        </p>
        {props.error ? (
          <p class="error" role="alert">
            {props.error}
          </p>
        ) : null}
        {page ? (
          <table>
            <caption class="visually-hidden">Requests, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Key</th>
                <th scope="col">Method</th>
                <th scope="col">Route</th>
                <th scope="col">Status</th>
                <th scope="col">Duration</th>
                <th scope="col">Request id</th>
                <th scope="col">IP</th>
              </tr>
            </thead>
            <tbody>
              {page.data.length === 0 ? (
                <tr>
                  <td colSpan={8}>No requests match.</td>
                </tr>
              ) : null}
              {page.data.map((entry) => (
                <tr>
                  <td>{formatTime(entry.createdAt)}</td>
                  <td>{entry.keyId ? (keyNames.get(entry.keyId) ?? entry.keyId) : "—"}</td>
                  <td>{entry.method}</td>
                  <td>
                    <code>{entry.route}</code>
                  </td>
                  <td>{entry.status}</td>
                  <td>{entry.durationMs.toFixed(1)} ms</td>
                  <td>
                    <code>{entry.requestId}</code>
                  </td>
                  <td>{entry.ip ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
        {page?.hasMore ? (
          <p>
            <a href={href(ctx, "/usage", next)} rel="next">
              Older requests
            </a>
          </p>
        ) : null}
      </section>
    </Layout>
  );
}
