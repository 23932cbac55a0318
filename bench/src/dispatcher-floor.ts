/**
 * The dispatcher benchmark's storage floor: what the least a durable delivery log writes costs
 * Postgres, with no HTTP and none of hireport's code. A table of pending deliveries with only the
 * index a claim walks, an attempt table with only its key; each delivery claimed (leased by one
 * `UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED)`) and its outcome recorded (its row
 * marked done and an attempt row inserted, one statement), in batches as large as a dispatcher with
 * the run's settings can ever hold. Whatever a dispatcher that keeps a log adds to a bare sender, it
 * adds at least this; the report reads the drain's ceiling from it.
 */
import pg from "pg";
import { processCpuMs } from "./common";

export interface FloorOptions {
  connectionString: string;
  /** Prefix of the two tables (the run's own; dropped with its other tables). */
  prefix: string;
  deliveries: number;
  /** Deliveries per claim and per record. */
  batch: number;
  /** Connections claiming and recording at once. */
  streams: number;
  /** The payload stored with each delivery (the size of the run's events). */
  payload: string;
}

export interface FloorFigures {
  deliveries: number;
  batch: number;
  streams: number;
  deliveriesPerSecond: number;
  /** CPU per delivery, µs: the Postgres backends of the streams, and this process (pg's client side). */
  postgresUs: number;
  clientUs: number;
}

export async function durableFloor(options: FloorOptions): Promise<FloorFigures> {
  const { prefix, deliveries, batch, streams, payload } = options;
  const pool = new pg.Pool({ connectionString: options.connectionString, max: streams });
  const deliveryTable = `"${prefix}floor_delivery"`;
  const attemptTable = `"${prefix}floor_attempt"`;
  try {
    await pool.query(`create table ${deliveryTable} (id text collate "C" primary key, status text not null,
      next_attempt_at timestamptz not null, lease_token text, lease_expires_at timestamptz, payload text not null)`);
    await pool.query(`create index on ${deliveryTable} (next_attempt_at, id) where status = 'pending'`);
    await pool.query(`create table ${attemptTable} (seq bigserial primary key, delivery_id text not null,
      attempted_at timestamptz not null, status_code integer, succeeded boolean not null)`);
    await pool.query(
      `insert into ${deliveryTable} (id, status, next_attempt_at, payload)
       select 'dlv_' || lpad(n::text, 9, '0'), 'pending', now() - interval '1 hour' + n * interval '1 ms', $1
       from generate_series(1, $2::integer) as n`,
      [payload, deliveries],
    );
    await pool.query(`vacuum analyze ${deliveryTable}`);
    await pool.query(`vacuum analyze ${attemptTable}`);

    const claim = {
      name: `${prefix}floor_claim`,
      text: `update ${deliveryTable} set lease_token = $1, lease_expires_at = now() + interval '30 seconds'
        where id in (select id from ${deliveryTable}
          where status = 'pending' and next_attempt_at <= now()
            and (lease_expires_at is null or lease_expires_at <= now())
          order by next_attempt_at, id limit $2 for update skip locked)
        returning id, payload`,
    };
    const record = {
      name: `${prefix}floor_record`,
      text: `with done as (
          update ${deliveryTable} as d set status = 'succeeded', lease_token = null, lease_expires_at = null
          from unnest($1::text[]) as i (id) where d.id = i.id and d.lease_token = $2 returning d.id)
        insert into ${attemptTable} (delivery_id, attempted_at, status_code, succeeded)
        select id, now(), 200, true from done`,
    };
    const clients = await Promise.all(Array.from({ length: streams }, () => pool.connect()));
    try {
      const pids: number[] = [];
      for (const client of clients) pids.push((await client.query("select pg_backend_pid() as pid")).rows[0].pid);
      const backendsMs = () => pids.reduce((sum, pid) => sum + processCpuMs(pid), 0);
      let done = 0;
      let claims = 0;
      const started = Date.now();
      const backendsBefore = backendsMs();
      const selfBefore = process.cpuUsage();
      await Promise.all(
        clients.map(async (client, stream) => {
          for (;;) {
            const token = `floor_${stream}_${claims++}`;
            const { rows } = await client.query<{ id: string; payload: string }>({ ...claim, values: [token, batch] });
            if (rows.length === 0) return;
            await client.query({ ...record, values: [rows.map((row) => row.id), token] });
            done += rows.length;
          }
        }),
      );
      const ms = Date.now() - started;
      const self = process.cpuUsage(selfBefore);
      const postgresMs = backendsMs() - backendsBefore;
      if (done !== deliveries) throw new Error(`the storage floor recorded ${done} of ${deliveries} deliveries`);
      return {
        deliveries,
        batch,
        streams,
        deliveriesPerSecond: Math.round((done * 1000) / ms),
        postgresUs: Math.round((postgresMs * 1000) / done),
        clientUs: Math.round((self.user + self.system) / done),
      };
    } finally {
      for (const client of clients) client.release();
    }
  } finally {
    await pool.query(`drop table if exists ${deliveryTable}, ${attemptTable}`).catch(() => undefined);
    await pool.end();
  }
}
