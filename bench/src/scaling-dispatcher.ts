/**
 * The webhook dispatcher process of the scaling benchmark (src/scaling.ts): a
 * `createWebhookDispatcher` on the API benchmarks' tables, started with its defaults (polling every
 * second), local receivers allowed, and woken by the app processes through Postgres's NOTIFY on
 * `BENCH_WAKE_CHANNEL` (src/wake.ts), as the production guide shows. Prints `READY` once started
 * and listening; SIGTERM stops it.
 */
import { kyselyWebhookStorage } from "@hireport/kysely/webhooks";
import { createWebhookDispatcher } from "@hireport/webhooks";
import { createDb, TABLE_PREFIX } from "./common";
import { benchWakeUps } from "./wake";

const db = createDb(Number(process.env.BENCH_POOL_SIZE ?? 10));
const dispatcher = createWebhookDispatcher({
  storage: kyselyWebhookStorage({ db, tablePrefix: TABLE_PREFIX }),
  allowPrivateAddresses: true,
  purgeIntervalMs: 0,
});
dispatcher.start();
const wakeUps = benchWakeUps();
await wakeUps?.listen(() => dispatcher.notify());
process.stdout.write("READY\n");

let stopping = false;
process.on("SIGTERM", () => {
  if (stopping) return;
  stopping = true;
  void Promise.resolve(wakeUps?.end())
    .then(() => dispatcher.stop())
    .then(() => db.destroy())
    .finally(() => process.exit(0));
});
