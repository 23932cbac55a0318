import { ApplyForm } from "./apply-form";
import { Layout } from "./layout";
import type { JobPageProps } from "./renderers";
import { ItemList, Paragraphs } from "./text-blocks";

/** `/jobs/{id}`: a public job, its JobPosting structured data, and the apply form. */
export function JobPage({ site, job, structuredData, form }: JobPageProps) {
  const record = job.record;
  const refused = Object.keys(form.errors).length > 0 || form.notices.length > 0;
  return (
    <Layout
      site={site}
      theme={site.theme}
      styles={site.styles}
      title={refused ? `Check your application: ${job.title}` : job.title}
      head={
        <>
          <link rel="canonical" href={job.url} />
          {record.shortDescription ? <meta name="description" content={record.shortDescription} /> : null}
          <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: structuredData }} />
        </>
      }
    >
      <article>
        <h1>{job.title}</h1>
        <ul class="meta">
          {job.location.words ? <li>{job.location.words}</li> : null}
          {record.department ? <li>{record.department}</li> : null}
          {job.employmentLabel ? <li>{job.employmentLabel}</li> : null}
          {record.experienceLevel ? <li>{record.experienceLevel}</li> : null}
          {job.salaryText ? <li>{job.salaryText}</li> : null}
          {record.closingDate ? <li>Apply by {record.closingDate}</li> : null}
          <li>Reference {job.reference}</li>
        </ul>
        <Paragraphs text={record.description || record.shortDescription} />
        <ItemList title="What you will do" items={record.responsibilities} />
        <ItemList title="What you need" items={record.requiredSkills} />
        <ItemList title="Nice to have" items={record.preferredSkills} />
        <ItemList title="Qualifications" items={record.qualifications} />
        <ItemList title="What we offer" items={record.benefits} />
      </article>
      <ApplyForm props={form} />
    </Layout>
  );
}
