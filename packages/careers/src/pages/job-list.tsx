import { Layout } from "./layout";
import type { JobListProps } from "./renderers";

/** `/jobs`: every public job, newest first, a page at a time. */
export function JobListPage({ site, jobs, nextHref, firstHref }: JobListProps) {
  return (
    <Layout
      site={site}
      theme={site.theme}
      styles={site.styles}
      title="Jobs"
      head={<link rel="canonical" href={`${site.siteUrl}/jobs`} />}
    >
      <h1>Jobs at {site.theme.name}</h1>
      {jobs.length === 0 ? (
        <p>There are no open jobs at the moment. Come back soon, or follow the RSS feed.</p>
      ) : (
        <ol class="jobs">
          {jobs.map((job) => (
            <li>
              <h2>
                <a href={job.href}>{job.title}</a>
              </h2>
              <ul class="meta">
                {job.location.words ? <li>{job.location.words}</li> : null}
                {job.record.department ? <li>{job.record.department}</li> : null}
                {job.employmentLabel ? <li>{job.employmentLabel}</li> : null}
                {job.salaryText ? <li>{job.salaryText}</li> : null}
              </ul>
              {job.record.shortDescription ? <p>{job.record.shortDescription}</p> : null}
            </li>
          ))}
        </ol>
      )}
      <nav aria-label="Pages">
        {firstHref ? <a href={firstHref}>First page</a> : null} {nextHref ? <a href={nextHref}>More jobs</a> : null}
      </nav>
    </Layout>
  );
}
