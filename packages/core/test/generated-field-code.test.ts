import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { GENERATED_FILES, generatedPath, renderFieldCode } from "../scripts/field-code";

describe("the mapping code of the declared fields is generated from JOB_FIELDS, APPLICATION_FIELDS and CANDIDATE_FIELDS", () => {
  const rendered = renderFieldCode();
  for (const name of Object.keys(GENERATED_FILES) as (keyof typeof GENERATED_FILES)[]) {
    it(`${GENERATED_FILES[name]} is what the declarations give today (run \`pnpm --filter @hireport/core generate\` after changing them)`, async () => {
      const committed = await readFile(generatedPath(name), "utf8");
      expect(committed, "out of date: run `pnpm --filter @hireport/core generate`").toBe(rendered[name]);
    });
  }
});
