import type { ScoringFunction } from "../runtime/host-functions";

const REQUIRED_WEIGHT = 0.7;
const PREFERRED_WEIGHT = 0.3;

function normalize(skill: string): string {
  return skill.trim().toLowerCase().replace(/\s+/g, " ");
}

/** Share of `wanted` skills present in `have`, or null when nothing is wanted. */
function coverage(wanted: readonly string[], have: ReadonlySet<string>): number | null {
  const unique = new Set(wanted.map(normalize).filter((s) => s.length > 0));
  if (unique.size === 0) return null;
  let matched = 0;
  for (const skill of unique) if (have.has(skill)) matched++;
  return matched / unique.size;
}

/**
 * The default `scores.ai_match`: a transparent, deterministic skills match from 0 to 100.
 *
 * Candidate skills are compared with the job's required skills (weight 0.7) and preferred skills
 * (weight 0.3), case-insensitively and ignoring extra spaces. When the job lists only one kind, that
 * kind carries the whole weight; when it lists none, the score is 0. The result is rounded to an
 * integer. It is advice for a person reviewing the application, never a decision.
 */
export const skillsMatchScore: ScoringFunction = ({ job, candidate }) => {
  const have = new Set(candidate.skills.map(normalize));
  const required = coverage(job.requiredSkills, have);
  const preferred = coverage(job.preferredSkills, have);
  if (required === null && preferred === null) return 0;
  if (required === null) return Math.round((preferred as number) * 100);
  if (preferred === null) return Math.round(required * 100);
  return Math.round((required * REQUIRED_WEIGHT + preferred * PREFERRED_WEIGHT) * 100);
};
