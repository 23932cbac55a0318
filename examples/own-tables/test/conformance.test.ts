/** The declared domain stores of the example over its own tables, checked by hireport's domain conformance suite. */

import { runDomainConformance } from "@hireport/core/testing";
import { kyselyStorage } from "@hireport/kysely";
import { kyselyConformanceInspector } from "@hireport/kysely/testing";
import { domain } from "../src/domain";
import { openDatabase } from "./support/databases";

for (const dialect of ["sqlite", "postgres"] as const) {
  runDomainConformance({
    name: `own tables on ${dialect}`,
    async setup() {
      const database = await openDatabase(dialect);
      return {
        storage: kyselyStorage({ db: database.db, domain }),
        // hireport's tables, and the product's as the declaration names them.
        inspect: kyselyConformanceInspector({ db: database.db, domain }),
        teardown: () => database.close(),
      };
    },
  });
}
