import type { JobRecord } from "@hireport/core";
import type { IndexingService } from "@hireport/core/extend";
import type { JobIndexNotice } from "@hireport/core/storage";
import { formatTime } from "./format";
import { href, Layout, type PageContext } from "./layout";

const SERVICE_NAMES: Record<IndexingService, string> = { indexnow: "IndexNow", google: "Google" };

export interface IndexingRow {
  job: JobRecord;
  isPublic: boolean;
  notices: readonly JobIndexNotice[];
}

function NoticeCell(props: { notice: JobIndexNotice | undefined; isPublic: boolean }) {
  const { notice } = props;
  if (!notice || notice.notifiedAt === null) return <td>{props.isPublic ? "Waiting" : "Not sent"}</td>;
  const failed = notice.error !== null;
  return (
    <td>
      {notice.action === "deleted" ? "Removed" : notice.action === "updated" ? "Updated" : "Tried"}
      {" · "}
      {formatTime(notice.notifiedAt)}
      {" · "}
      <span class={failed ? "error" : undefined}>{notice.status === null ? "no answer" : notice.status}</span>
      {failed ? <span class="muted"> {notice.error}</span> : null}
    </td>
  );
}

export function IndexingPage(props: {
  ctx: PageContext;
  state: "shown" | "forbidden" | "off";
  services?: readonly IndexingService[];
  rows?: readonly IndexingRow[];
  nextCursor?: string | null;
}) {
  const { ctx } = props;
  const title = "Search engines";
  if (props.state !== "shown") {
    return (
      <Layout ctx={ctx} section="indexing" title={title}>
        <p class="error" role="alert">
          {props.state === "off"
            ? "Search engine notices are not set up here."
            : "Only an owner or an admin of the company can see the search engine notices."}
        </p>
      </Layout>
    );
  }
  const services = props.services ?? [];
  const rows = props.rows ?? [];
  return (
    <Layout ctx={ctx} section="indexing" title={title}>
      <p>
        When a job's page appears, changes or goes, the search engines are told. Each job shows the last notice to each
        service: what it said, when, and the answer. Newest jobs first.
      </p>
      <table>
        <caption class="visually-hidden">Jobs and their last search engine notices</caption>
        <thead>
          <tr>
            <th scope="col">Job</th>
            <th scope="col">Public</th>
            {services.map((service) => (
              <th scope="col">{SERVICE_NAMES[service]}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={2 + services.length}>No jobs yet.</td>
            </tr>
          ) : null}
          {rows.map((row) => (
            <tr>
              <td>
                {row.job.title} <code>{row.job.id}</code>
              </td>
              <td>{row.isPublic ? "Yes" : "No"}</td>
              {services.map((service) => (
                <NoticeCell notice={row.notices.find((notice) => notice.service === service)} isPublic={row.isPublic} />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {props.nextCursor ? (
        <p>
          <a href={href(ctx, "/indexing", new URLSearchParams({ cursor: props.nextCursor }))} rel="next">
            Older jobs
          </a>
        </p>
      ) : null}
    </Layout>
  );
}
