import type { Logger } from "@hireport/core";

/** A logger that keeps what it is given, so tests can check what a 500 logged (and the run stays quiet). */
export interface MemoryLogger extends Logger {
  entries: { level: string; message: string; details: Record<string, unknown> | undefined }[];
}

export function memoryLogger(): MemoryLogger {
  const entries: MemoryLogger["entries"] = [];
  return {
    entries,
    warn: (message, details) => {
      entries.push({ level: "warn", message, details });
    },
    error: (message, details) => {
      entries.push({ level: "error", message, details });
    },
  };
}
