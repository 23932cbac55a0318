/** The domain stores of the example over its own tables, checked by hireport's domain conformance suite. */

import { runDomainConformance } from "@hireport/core/testing";
import { kyselyStorage } from "@hireport/kysely";
import { hostDomainStores } from "../src/domain-stores";
import { openDatabase } from "./support/databases";
import { inspectTables } from "./support/inspect";

for (const dialect of ["sqlite", "postgres"] as const) {
  runDomainConformance({
    name: `own tables on ${dialect}`,
    async setup() {
      const database = await openDatabase(dialect);
      return {
        storage: kyselyStorage({ db: database.db, domain: hostDomainStores }),
        inspect: inspectTables(database),
        teardown: () => database.close(),
      };
    },
  });
}
