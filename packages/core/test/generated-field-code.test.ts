import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { GENERATED_FILES, renderFieldCode } from "./support/field-code";

describe("the mapping code of the Job fields is generated from JOB_FIELDS", () => {
  const rendered = renderFieldCode();
  for (const [name, path] of Object.entries(GENERATED_FILES) as [keyof typeof GENERATED_FILES, string][]) {
    it(`${path} is what the declarations give today (run \`pnpm --filter @hireport/core generate\` after changing them)`, async () => {
      // `vitest run -u` (the generate script) rewrites the file; without -u any drift fails here.
      await expect(rendered[name]).toMatchFileSnapshot(
        fileURLToPath(new URL(path, new URL("./support/", import.meta.url))),
      );
    });
  }
});
