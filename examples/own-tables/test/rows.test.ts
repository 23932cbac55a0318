/** The mapping of the host's rows: a listing stored before a Job field existed still reads whole. */
import { jobFieldDefaults } from "@hireport/core/storage";
import { describe, expect, it } from "vitest";
import { toJob } from "../src/rows";

describe("toJob", () => {
  it("gives a Job field missing from an older listing's details its default (the place fields read null)", () => {
    const { title, closingDate, country, region, locality, postalCode, workplaceType, ...older } = {
      ...jobFieldDefaults(),
      location: "Leeds",
      salaryMin: 30_000,
    };
    const job = toJob({
      id: "job_1",
      orgId: "co_1",
      ref: "JOB-1",
      headline: "Welder",
      state: "open",
      unlisted: 0,
      closesOn: null,
      details: JSON.stringify(older),
      applicantCount: 0,
      firstListedAt: null,
      filledAt: null,
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-01T00:00:00.000Z",
    });
    expect(job).toMatchObject({ title: "Welder", location: "Leeds", salaryMin: 30_000, status: "active" });
    expect(job).toMatchObject({ country: null, region: null, locality: null, postalCode: null, workplaceType: null });
    expect(Object.keys(job)).toEqual(expect.arrayContaining(Object.keys(jobFieldDefaults())));
  });
});
