/**
 * `pnpm --filter @hireport/core generate`: writes the mapping code generated from the field
 * declarations (`JOB_FIELDS`, `APPLICATION_FIELDS`, `CANDIDATE_FIELDS`) into the files of
 * `GENERATED_FILES`, in core and in `@hireport/kysely`, and says which of them changed. The files
 * are committed; `test/generated-field-code.test.ts` fails when one is out of date.
 */
import { readFile, writeFile } from "node:fs/promises";
import { relative } from "node:path";
import { GENERATED_FILES, generatedPath, renderFieldCode } from "./field-code";

async function current(path: string): Promise<string | null> {
  return readFile(path, "utf8").catch(() => null);
}

const rendered = renderFieldCode();
for (const name of Object.keys(GENERATED_FILES) as (keyof typeof GENERATED_FILES)[]) {
  const path = generatedPath(name);
  const shown = relative(process.cwd(), path);
  if ((await current(path)) === rendered[name]) {
    console.log(`${shown}: up to date`);
    continue;
  }
  await writeFile(path, rendered[name]);
  console.log(`${shown}: written`);
}
