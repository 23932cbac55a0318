/** A problem in a declaration, found when `declaredDomain` is called (before any statement runs). */
export class DeclarationError extends Error {
  override name = "DeclarationError";
  constructor(message: string) {
    super(`@hireport/kysely declaredDomain: ${message}`);
  }
}
