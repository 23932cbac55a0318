import { Layout } from "./layout";
import type { AppliedProps, GoneProps, MessageProps, ReviewProps } from "./renderers";

/** After an application was received; a duplicate gets exactly the same page. */
export function AppliedPage({ site, job, humanReviewHref }: AppliedProps) {
  return (
    <Layout site={site} theme={site.theme} styles={site.styles} title={`Application received: ${job.title}`}>
      <h1>Thank you for applying</h1>
      <p class="done" role="status">
        Your application for <strong>{job.title}</strong> has been received.
      </p>
      <p>The team at {site.theme.name} will read it and come back to you.</p>
      <h2>A person reviews your application</h2>
      <p>
        Hiring decisions at {site.theme.name} involve a person. If you want to be sure a person reviews your application
        itself, not only software, ask for it here:{" "}
        <a href={humanReviewHref}>ask for a person to review my application</a>. Keep this link: it works for a year.
      </p>
      <p>
        <a href={site.links.jobs}>See all jobs</a>
      </p>
    </Layout>
  );
}

/** 410: the job was public and no longer is. No structured data. */
export function GonePage({ site, job }: GoneProps) {
  return (
    <Layout site={site} theme={site.theme} styles={site.styles} title={`No longer open: ${job.title}`}>
      <h1>This job is no longer open</h1>
      <p>
        <strong>{job.title}</strong> is not taking applications any more.
      </p>
      <p>
        <a href={site.links.jobs}>See the jobs that are open</a>
      </p>
    </Layout>
  );
}

/** The human-review link: a page with a button (a link alone changes nothing), then the confirmation. */
export function ReviewPage({ site, state, action }: ReviewProps) {
  const title =
    state === "done"
      ? "A person will review your application"
      : state === "invalid"
        ? "This link cannot be used"
        : "Ask for a person to review your application";
  return (
    <Layout site={site} theme={site.theme} styles={site.styles} title={title}>
      <h1>{title}</h1>
      {state === "confirm" ? (
        <form method="post" action={action}>
          <p>
            Hiring decisions at {site.theme.name} involve a person. Send this request and a person at {site.theme.name}{" "}
            will review your application itself, whatever any software made of it.
          </p>
          <p>
            <button type="submit">Ask for a person to review my application</button>
          </p>
        </form>
      ) : state === "done" ? (
        <p class="done" role="status">
          Your request is recorded. A person at {site.theme.name} will review your application.
        </p>
      ) : (
        <p>It has expired or is not complete. Copy the whole link from the page you got after applying.</p>
      )}
      <p>
        <a href={site.links.jobs}>See all jobs</a>
      </p>
    </Layout>
  );
}

/** A short message: not found, too many applications, something went wrong. */
export function MessagePage({ site, theme, styles, title, message }: MessageProps) {
  return (
    <Layout site={site} theme={theme} styles={styles} title={title}>
      <h1>{title}</h1>
      <p>{message}</p>
      {site ? (
        <p>
          <a href={site.links.jobs}>See all jobs</a>
        </p>
      ) : null}
    </Layout>
  );
}
