import type { UsageFilters } from "@hireport/core/extend";
import type { Call } from "../call";
import { type UsageFilterValues, UsagePageView } from "../pages/usage-page";
import { newNonce, securityHeaders } from "../responses";
import { usageCsv } from "../usage-csv";
import { refusalMessages } from "./errors";

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The filters of the query string, as typed (to show again) and as `api.usage` takes them. */
function filtersOf(query: URLSearchParams): { values: UsageFilterValues; filters: UsageFilters; error: string | null } {
  const values: UsageFilterValues = {
    key: query.get("key") ?? "",
    status: (query.get("status") ?? "").trim(),
    route: (query.get("route") ?? "").trim(),
    from: query.get("from") ?? "",
    to: query.get("to") ?? "",
  };
  const filters: UsageFilters = {};
  const problems: string[] = [];
  if (values.key) filters.keyId = values.key;
  if (values.route) filters.route = values.route;
  if (values.status) {
    const match = /^([1-5])(?:xx|XX|(\d\d))$/.exec(values.status);
    if (!match) problems.push("the status is a code such as 404 or a class such as 4xx");
    else if (match[2] === undefined) filters.statusClass = Number(match[1]);
    else filters.status = Number(values.status);
  }
  for (const name of ["from", "to"] as const) {
    const value = values[name];
    if (!value) continue;
    if (!DAY.test(value) || Number.isNaN(Date.parse(value))) {
      problems.push(`"${name}" is a day, YYYY-MM-DD`);
      continue;
    }
    const start = new Date(`${value}T00:00:00.000Z`);
    if (name === "from") filters.since = start;
    else filters.until = new Date(start.getTime() + 86_400_000);
  }
  return { values, filters, error: problems.length > 0 ? `Check the filters: ${problems.join("; ")}.` : null };
}

/** The filters as a query string, for the next page and the export. */
function filterQuery(values: UsageFilterValues): URLSearchParams {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value) query.set(name, value);
  return query;
}

/** The usage page: the chart, the filters, one page of requests (or what is wrong with the filters). */
async function usagePage(call: Call, problemOfFilters: string | null = null) {
  const { api } = call.options;
  const { values, filters, error } = filtersOf(call.query);
  const cursor = call.query.get("cursor") ?? undefined;
  const [ctx, days, keys] = await Promise.all([
    call.page(),
    api.usage.daily(call.companyId, { days: 30 }),
    api.keys.list(call.companyId),
  ]);
  let page = null;
  let problem = problemOfFilters ?? error;
  if (!problem) {
    try {
      page = await api.usage.list(call.companyId, { ...filters, limit: 50, ...(cursor ? { cursor } : {}) });
    } catch (failure) {
      problem = refusalMessages(failure, ["invalid", "bad_request"]).join(" ");
    }
  }
  const view = (
    <UsagePageView
      ctx={ctx}
      days={days}
      keys={keys}
      filters={values}
      filterQuery={filterQuery(values)}
      page={page}
      error={problem}
    />
  );
  return call.render(view, problem ? 400 : 200);
}

export const showUsage = (call: Call) => usagePage(call);

/** The requests that match the filters, every one, as a streamed CSV file. */
export async function exportUsage(call: Call) {
  const { api } = call.options;
  const { filters, error } = filtersOf(call.query);
  if (error) return usagePage(call, error);
  const keys = await api.keys.list(call.companyId);
  const names = new Map(keys.map((key) => [key.id, key.name]));
  const day = call.options.clock.now().toISOString().slice(0, 10);
  return {
    status: 200,
    headers: {
      ...securityHeaders(call.options, newNonce()),
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="usage-${day}.csv"`,
    },
    body: usageCsv(api.usage.entries(call.companyId, filters), names),
  };
}
