/** The host's Fastify app: hireport's public API and CV route mounted under the host's own prefixes. */
import type { PublicApi } from "@hireport/core";
import { hireportFastify, hireportFastifyFiles } from "@hireport/fastify";
import Fastify, { type FastifyInstance } from "fastify";

export async function serve(api: PublicApi): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(hireportFastify, { api, prefix: "/api/public/v1" });
  await app.register(hireportFastifyFiles, { api, prefix: "/files/cv" });
  return app;
}
