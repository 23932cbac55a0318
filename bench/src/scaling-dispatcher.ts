/**
 * The webhook dispatcher process of the scaling benchmark (src/scaling.ts): a
 * `createWebhookDispatcher` on the API benchmarks' tables, started with its defaults (it finds new
 * deliveries by polling, as a dispatcher in its own process does), local receivers allowed. Prints
 * `READY` once started; SIGTERM stops it.
 */
import { kyselyStorage } from "@hireport/kysely";
import { createWebhookDispatcher } from "@hireport/webhooks";
import { createDb, TABLE_PREFIX } from "./common";

const db = createDb(Number(process.env.BENCH_POOL_SIZE ?? 10));
const dispatcher = createWebhookDispatcher({
  storage: kyselyStorage({ db, tablePrefix: TABLE_PREFIX }),
  allowPrivateAddresses: true,
  purgeIntervalMs: 0,
});
dispatcher.start();
process.stdout.write("READY\n");

let stopping = false;
process.on("SIGTERM", () => {
  if (stopping) return;
  stopping = true;
  void dispatcher
    .stop()
    .then(() => db.destroy())
    .finally(() => process.exit(0));
});
