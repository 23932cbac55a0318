/** `JobStore` over the host's `openings` table. */
import type { JobStore } from "@hireport/core/storage";
import type { Kysely, Updateable } from "kysely";
import { toState } from "./mapping";
import { replicaFirst, type Scope, toJob, values } from "./rows";
import type { HostDatabase, OpeningsTable } from "./schema";

export function createJobStore(scope: Scope): JobStore {
  const { time, timeOrNull, flag } = values(scope);
  const get = async (db: Kysely<HostDatabase>, companyId: string, id: string, lock = false) => {
    const query = db.selectFrom("openings").selectAll().where("id", "=", id).where("orgId", "=", companyId);
    const row = await (lock ? scope.forUpdate(query) : query).executeTakeFirst();
    return row ? toJob(row) : null;
  };
  return {
    async insert(job) {
      const { id, companyId, reference, status, hidden, applicationsCount, title, closingDate, ...rest } = job;
      const { createdAt, updatedAt, closedAt, publishedAt, ...details } = rest;
      await scope.db
        .insertInto("openings")
        .values({
          id,
          orgId: companyId,
          ref: reference,
          headline: title,
          state: toState(status),
          unlisted: flag(hidden),
          closesOn: closingDate,
          details: JSON.stringify(details),
          applicantCount: applicationsCount,
          firstListedAt: timeOrNull(publishedAt),
          filledAt: timeOrNull(closedAt),
          createdAt: time(createdAt),
          updatedAt: time(updatedAt),
        })
        .execute();
    },

    get: async (companyId, id, options) =>
      (replicaFirst(scope, options) ? await get(scope.readDb, companyId, id) : null) ??
      get(scope.db, companyId, id, options?.lock === true),

    update: (companyId, id, patch) =>
      scope.atomic(async (tx) => {
        const { status, hidden, closedAt, publishedAt, updatedAt, title, closingDate, ...fields } = patch;
        const set: Updateable<OpeningsTable> = { updatedAt: time(updatedAt) };
        if (status !== undefined) set.state = toState(status);
        if (hidden !== undefined) set.unlisted = flag(hidden);
        if (closedAt !== undefined) set.filledAt = timeOrNull(closedAt);
        if (publishedAt !== undefined) set.firstListedAt = timeOrNull(publishedAt);
        if (title !== undefined) set.headline = title;
        if (closingDate !== undefined) set.closesOn = closingDate;
        const changed = Object.entries(fields).filter(([, value]) => value !== undefined);
        if (changed.length > 0) {
          // Only the fields present change: the rest of `details` is read, under a lock, and kept.
          const current = await tx
            .forUpdate(
              tx.db.selectFrom("openings").select("details").where("id", "=", id).where("orgId", "=", companyId),
            )
            .executeTakeFirst();
          if (!current) return null;
          set.details = JSON.stringify({ ...JSON.parse(current.details), ...Object.fromEntries(changed) });
        }
        await tx.db.updateTable("openings").set(set).where("id", "=", id).where("orgId", "=", companyId).execute();
        return get(tx.db, companyId, id);
      }),

    async list({ companyId, statuses, updatedSince, publicOn, after, take }) {
      if (statuses?.length === 0) return [];
      let query = scope.readDb.selectFrom("openings").selectAll().where("orgId", "=", companyId);
      if (statuses) query = query.where("state", "in", statuses.map(toState));
      if (updatedSince) query = query.where("updatedAt", ">=", time(updatedSince));
      if (publicOn !== undefined) {
        query = query
          .where("state", "=", toState("active"))
          .where("unlisted", "=", flag(false))
          .where((eb) => eb.or([eb("closesOn", "is", null), eb("closesOn", ">=", publicOn)]));
      }
      if (after) {
        const at = time(after.at);
        query = query.where((eb) =>
          eb.or([eb("createdAt", "<", at), eb.and([eb("createdAt", "=", at), eb("id", "<", after.id)])]),
        );
      }
      const rows = await query.orderBy("createdAt", "desc").orderBy("id", "desc").limit(Math.max(0, take)).execute();
      return rows.map(toJob);
    },
  };
}
