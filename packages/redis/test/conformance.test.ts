/**
 * The storage conformance suite of @hireport/core on the decorated storage: over the memory storage
 * and over Postgres, with the standalone Redis and with a 3-master Redis Cluster. Its key-admission
 * and rate-limit tests then run on Redis (rate-limit counters are read from Redis, else from the
 * database, see `counterReads`).
 */
import { runStorageConformance } from "@hireport/core/testing";
import { counterReads, type DatabaseKind, decorated, openDatabase, openRedis, type RedisKind } from "./support/targets";

const TARGETS: [DatabaseKind, RedisKind][] = [
  ["memory", "standalone"],
  ["postgres", "standalone"],
  ["memory", "cluster"],
  ["postgres", "cluster"],
];

for (const [databaseKind, redisKind] of TARGETS) {
  runStorageConformance({
    name: `withRedisAdmission over ${databaseKind}, Redis ${redisKind}`,
    async setup() {
      const database = await openDatabase(databaseKind);
      const redis = await openRedis(redisKind);
      const { storage, client } = await decorated(database, redis);
      return {
        storage,
        inspect: counterReads(database.inspect, client, redis.prefix),
        async teardown() {
          await redis.close();
          await database.close();
        },
      };
    },
  });
}
