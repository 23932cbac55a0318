import { isHireportError } from "@hireport/core";

/** The messages of a refusal (`invalid` with its fields, `key_limit`…) to show beside a form; rethrows anything else. */
export function refusalMessages(error: unknown, codes: readonly string[] = ["invalid"]): string[] {
  if (!isHireportError(error) || !codes.includes(error.code)) throw error;
  const fields = error.fields?.map((field) => `${field.field}: ${field.message}`) ?? [];
  return fields.length > 0 ? fields : [error.message];
}
