import { eventCatalog } from "@hireport/core/extend";
import type { Call } from "../call";
import { EventCatalogPage } from "../pages/event-catalog-page";

/** The event catalog: every event type with its description, an example and its JSON Schema. */
export async function showEventCatalog(call: Call) {
  const ctx = await call.page();
  return call.render(<EventCatalogPage ctx={ctx} events={eventCatalog()} />);
}
