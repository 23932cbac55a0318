// Cold start, hireport as a Next.js route handler on a function platform: import, build the API on
// Postgres, answer one GET /me (answer-once.mjs). Run by src/coldstart.ts with plain `node` on the
// packages as built (dist).
import { toNextHandlers } from "@hireport/next";
import { answerOnce } from "./answer-once.mjs";
import { hireportApi } from "./hireport-api.mjs";

const imported = performance.now();
const { GET } = toNextHandlers(hireportApi());
await answerOnce(GET, imported, performance.now());
