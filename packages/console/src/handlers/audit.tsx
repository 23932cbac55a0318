import type { Call } from "../call";
import { AuditPage } from "../pages/audit-page";

export async function showAudit(call: Call) {
  const cursor = call.query.get("cursor") ?? undefined;
  const [ctx, page] = await Promise.all([
    call.page(),
    call.options.api.audit.list(call.companyId, { limit: 50, ...(cursor ? { cursor } : {}) }),
  ]);
  return call.render(<AuditPage ctx={ctx} page={page} />);
}
