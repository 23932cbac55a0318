export * from "./domain";
export * from "./errors";
export type * from "./http-types";
export * from "./options";
export type * from "./storage";
