/** Types every store of the contract shares. */

export type { KeysetPosition } from "../model/cursor";

export interface GetOptions {
  /**
   * Lock the row until the transaction ends (`FOR UPDATE` where the database has it), so that two
   * concurrent changes of one record run one after the other. Only meaningful inside a transaction.
   */
  lock?: boolean;
  /**
   * The caller accepts a copy as old as a read replica's lag: a storage with a replica may answer
   * from it. A storage that finds nothing on the replica MUST look on the primary before answering
   * null, so that a record just created is never reported missing. Ignored with `lock` and inside a
   * transaction. Core sets it on the API's reads by id (`GET /jobs/{id}`, `GET /applications/{id}`
   * and the job filter of `GET /applications`), never on a read that decides a write.
   * @default false
   */
  replica?: boolean;
}
