/**
 * `@hireport/console`: the company's side of hireport, ready to mount in the host's app: API keys,
 * usage, webhooks and deliveries, the audit list, for owners and admins (and read-only roles).
 */
export { createConsole, type HireportConsole } from "./create-console";
export type { ConsoleJobIndexing, ConsoleOptions, ConsolePrincipal, ConsoleTheme } from "./options";
export type { PortalLinkInput } from "./session";
