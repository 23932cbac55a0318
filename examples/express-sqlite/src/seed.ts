/**
 * Demo data: one company with a few jobs and applications, created through the host services (the
 * same code paths as the API, so each change also emits its event).
 */
import type { PublicApi } from "@hireport/core";

export const DEMO_COMPANY = { id: "demo-company", name: "Acme Robotics (demo)" };

const JOBS = [
  {
    title: "Senior Backend Engineer",
    department: "Engineering",
    location: "London",
    employment_type: "full_time",
    experience_level: "senior",
    salary_min: 85_000,
    salary_max: 105_000,
    required_skills: ["TypeScript", "PostgreSQL", "Node.js"],
    preferred_skills: ["Kysely", "Kubernetes"],
    description: "Build the services behind our robot fleet.",
    status: "active" as const,
  },
  {
    title: "Product Designer",
    department: "Design",
    location: "Remote (UK)",
    employment_type: "full_time",
    required_skills: ["Figma", "User research"],
    status: "active" as const,
  },
  {
    title: "Field Technician",
    department: "Operations",
    location: "Manchester",
    employment_type: "contract",
    required_skills: ["Electronics", "Driving licence"],
    status: "draft" as const,
  },
];

const CANDIDATES = [
  { name: "Ada Lovelace", email: "ada@example.com", skills: ["TypeScript", "PostgreSQL", "Kysely"], job: 0 },
  { name: "Grace Hopper", email: "grace@example.com", skills: ["Node.js", "TypeScript"], job: 0 },
  { name: "Dieter Rams", email: "dieter@example.com", skills: ["Figma"], job: 1 },
  { name: "Zoë Müller", email: "zoe@example.com", skills: ["User research", "Figma"], job: 1 },
];

/** Registers the demo company and, the first time only, its jobs and applications. */
export async function seed(api: PublicApi): Promise<{ created: boolean }> {
  await api.companies.upsert(DEMO_COMPANY);
  const existing = await api.jobs.list(DEMO_COMPANY.id, { status: "all", limit: 1 });
  if (existing.data.length > 0) return { created: false };
  const jobs = [];
  for (const input of JOBS) jobs.push(await api.jobs.create(DEMO_COMPANY.id, input));
  for (const candidate of CANDIDATES) {
    const job = jobs[candidate.job];
    if (!job) continue;
    await api.applications.create(
      DEMO_COMPANY.id,
      {
        job_id: job.id,
        candidate: { name: candidate.name, email: candidate.email, skills: candidate.skills },
        resume_url: `https://files.example.com/cv/${candidate.email.split("@")[0]}.pdf`,
        source: "careers_page",
        consent: true,
      },
      { actor: "Careers page" },
    );
  }
  return { created: true };
}
