/** Messages between the dispatcher benchmark and its receiver process. */
export type ReceiverCommand =
  | { type: "config"; secrets: string[] }
  | { type: "phase"; name: string }
  | { type: "count" }
  /** Forget every request so far (after the bare sender's phase). */
  | { type: "reset" }
  | { type: "report" }
  | { type: "exit" };

export interface ReceiverReport {
  requests: number;
  unique: number;
  duplicates: number;
  signaturesChecked: number;
  signaturesBad: number;
  /** Event `created_at` to first arrival, ms, per phase. */
  latencies: Record<string, number[]>;
  /** First arrivals of the live phase: event id and arrival time (ms since the epoch). */
  liveArrivals: Array<[string, number]>;
  /** Requests arrived in each second since the receiver started. */
  arrivalsPerSecond: number[];
}

export type ReceiverMessage =
  | { type: "listening"; port: number }
  | { type: "count"; requests: number; unique: number }
  | { type: "report"; report: ReceiverReport };
