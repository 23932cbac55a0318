import type { CompanyRecord } from "../model/domain";
import type { CompanyStore } from "../storage";
import type { StateAccess } from "./access";
import { copy, toStored } from "./copy";

export function createCompanyStore(access: StateAccess): CompanyStore {
  return {
    upsert: (company) =>
      access.write((state) => {
        const companies = state.write("companies");
        const existing = companies.get(company.id);
        const stored: CompanyRecord = toStored(
          existing
            ? { ...existing, name: company.name }
            : { id: company.id, name: company.name, createdAt: company.createdAt },
        );
        companies.set(company.id, stored);
        return copy(stored);
      }),

    get: (id) => access.read((state) => copy(state.read("companies").get(id) ?? null)),

    reserveSequence: (companyId, kind, count) =>
      access.write((state) => {
        const sequences = state.write("sequences");
        const key = `${companyId}\u0000${kind}`;
        const last = (sequences.get(key) ?? 0) + count;
        sequences.set(key, last);
        return last - count + 1;
      }),
  };
}
