/**
 * `@hireport/redis`: key admission of the hireport public API (the key lookup and its rate-limit
 * counts, the storage write of every request) on Redis or Redis Cluster, as a storage decorator.
 */
export type { RedisAdmissionOptions } from "./options";
export { withRedisAdmission } from "./with-redis-admission";
