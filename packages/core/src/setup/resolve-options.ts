import type { UsageLogMode } from "../access/usage-log";
import { checkTimeZone } from "../model/public-jobs";
import type { ResolvedLimits } from "../runtime/runtime";
import type { CreatePublicApiOptions } from "./options";

export interface ResolvedOptions {
  publicBaseUrl: string;
  basePath: string;
  filesPath: string;
  fileTokenTtlSeconds: number;
  usageBatchSize: number;
  usageFlushMs: number;
  usageLog: UsageLogMode;
  /** The most reference numbers one reservation asks for. */
  maxReferenceBlock: number;
  limits: ResolvedLimits;
  /** The root of a company's careers site. */
  publicSiteUrl: (company: { id: string }) => string;
  /** The time zone of a company's closing dates. */
  closingTimeZone: (company: { id: string }) => string;
  /** Whether public jobs have pages (`public_url`). */
  publicJobPages: boolean;
}

function positiveInteger(name: string, value: number | undefined, fallback: number, max?: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1 || (max !== undefined && value > max)) {
    const range = max === undefined ? "a positive integer" : `an integer from 1 to ${max}`;
    throw new TypeError(`hireport: option ${name} must be ${range}, got ${String(value)}.`);
  }
  return value;
}

function pathOption(name: string, value: string | undefined, fallback: string): string {
  const path = value ?? fallback;
  if (path !== "" && (!path.startsWith("/") || path.endsWith("/"))) {
    throw new TypeError(`hireport: option ${name} must start with '/' and not end with one, got '${path}'.`);
  }
  return path;
}

/** Checks the options of `createPublicApi` and applies the defaults. Throws a TypeError on bad options. */
export function resolveOptions(options: CreatePublicApiOptions): Readonly<ResolvedOptions> {
  if (!options || typeof options !== "object")
    throw new TypeError("hireport: createPublicApi needs an options object.");
  if (!options.storage) throw new TypeError("hireport: option storage is required (kyselyStorage(...) or your own).");
  if (typeof options.fileTokenSecret !== "string" || options.fileTokenSecret.length < 32) {
    throw new TypeError("hireport: option fileTokenSecret must be a secret string of at least 32 characters.");
  }
  let publicBaseUrl: string;
  try {
    const url = new URL(options.publicBaseUrl);
    if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error("protocol");
    publicBaseUrl = options.publicBaseUrl.replace(/\/+$/, "");
  } catch {
    throw new TypeError(
      `hireport: option publicBaseUrl must be an absolute http(s) address, got '${String(options.publicBaseUrl)}'.`,
    );
  }
  const usageLog = options.usageLog ?? "batched";
  if (usageLog !== "batched" && usageLog !== "durable") {
    throw new TypeError(`hireport: option usageLog must be "batched" or "durable", got '${String(usageLog)}'.`);
  }
  const limits = options.limits ?? {};
  const siteUrl = options.publicSiteUrl;
  if (siteUrl !== undefined && typeof siteUrl !== "function") {
    throw new TypeError("hireport: option publicSiteUrl must be a function (company) => the root of its careers site.");
  }
  const publicJobPages = options.publicJobPages ?? true;
  if (typeof publicJobPages !== "boolean") {
    throw new TypeError(`hireport: option publicJobPages must be true or false, got '${String(publicJobPages)}'.`);
  }
  const zone = options.closingTimeZone ?? "UTC";
  let closingTimeZone: (company: { id: string }) => string;
  if (typeof zone === "function") closingTimeZone = zone;
  else {
    const fixed = checkTimeZone(zone, "closingTimeZone");
    closingTimeZone = () => fixed;
  }
  return Object.freeze({
    publicSiteUrl: siteUrl ? (company: { id: string }) => siteUrl(company).replace(/\/+$/, "") : () => publicBaseUrl,
    closingTimeZone,
    publicJobPages,
    publicBaseUrl,
    basePath: pathOption("basePath", options.basePath, "/api/public/v1"),
    filesPath: pathOption("filesPath", options.filesPath, "/files/cv"),
    fileTokenTtlSeconds: positiveInteger("fileTokenTtlSeconds", options.fileTokenTtlSeconds, 900),
    usageBatchSize: positiveInteger("usageBatchSize", options.usageBatchSize, 100),
    usageFlushMs: positiveInteger("usageFlushMs", options.usageFlushMs, 250),
    usageLog,
    maxReferenceBlock: positiveInteger("maxReferenceBlock", options.maxReferenceBlock, 16, 1000),
    limits: Object.freeze({
      perMinute: positiveInteger("limits.perMinute", limits.perMinute, 120),
      perDay: positiveInteger("limits.perDay", limits.perDay, 20_000),
      activeKeysPerCompany: positiveInteger("limits.activeKeysPerCompany", limits.activeKeysPerCompany, 10),
      maxBodyBytes: positiveInteger("limits.maxBodyBytes", limits.maxBodyBytes, 1_048_576),
      duplicateWindowDays: positiveInteger("limits.duplicateWindowDays", limits.duplicateWindowDays, 30),
    }),
  });
}
