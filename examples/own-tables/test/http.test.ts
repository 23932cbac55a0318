/**
 * hireport's black-box HTTP suite through Fastify on the example's storage: every request a client
 * makes lands in the host's own tables (jobs, applications, candidates) and hireport's beside them.
 */
import type { AddressInfo } from "node:net";
import { runHttpSuite } from "@hireport/core/testing";
import { kyselyStorage } from "@hireport/kysely";
import { afterAll } from "vitest";
import { domain } from "../src/domain";
import { serve } from "../src/server";
import { openDatabase } from "./support/databases";

for (const dialect of ["sqlite", "postgres"] as const) {
  const database = await openDatabase(dialect);
  afterAll(() => database.close());
  runHttpSuite({
    name: `own tables on ${dialect}, Fastify`,
    storage: () => kyselyStorage({ db: database.db, domain }),
    async start(api) {
      const app = await serve(api);
      await app.listen({ port: 0, host: "127.0.0.1" });
      const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      return { baseUrl: `${origin}/api/public/v1`, filesBaseUrl: `${origin}/files/cv`, close: () => app.close() };
    },
  });
}
