/** The Job fields the careers site's public JSON shows: those declared `public`. */
import type * as z from "zod";
import type { PublicOf } from "../fields/field";
import type { JobFieldSet } from "../fields/job";
import type { salarySchema } from "../schemas/job";

/** The public Job fields as `/jobs.json` gives them, the salary fields grouped under `salary`. */
export type PublicJobFieldsJson = PublicOf<JobFieldSet> & { salary: z.output<typeof salarySchema> };
