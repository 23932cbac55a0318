import { HireportError, unknownCompany } from "../base/errors";
import type { CompanyRecord } from "../model/domain";
import type { Runtime } from "../runtime/runtime";

/** The companies hireport knows: the host registers each of its companies (tenants) once. */
export class CompanyService {
  readonly #runtime: Runtime;

  constructor(runtime: Runtime) {
    this.#runtime = runtime;
  }

  /** Registers a company or renames it. `id` is the host's own id of the company (1 to 100 characters). */
  async upsert(input: { id: string; name: string }): Promise<CompanyRecord> {
    const fields = [];
    if (typeof input.id !== "string" || input.id.length === 0 || input.id.length > 100) {
      fields.push({ field: "id", message: "Give the company's id, 1 to 100 characters." });
    }
    if (typeof input.name !== "string" || input.name.trim().length === 0 || input.name.length > 200) {
      fields.push({ field: "name", message: "Give the company's name, 1 to 200 characters." });
    }
    if (fields.length > 0) throw new HireportError("invalid", "The company cannot be saved as given.", { fields });
    return this.#runtime.storage.companies.upsert({
      id: input.id,
      name: input.name.trim(),
      createdAt: this.#runtime.clock.now(),
    });
  }

  async get(id: string): Promise<CompanyRecord> {
    const company = await this.#runtime.storage.companies.get(id);
    if (!company) throw unknownCompany(id);
    return company;
  }
}
