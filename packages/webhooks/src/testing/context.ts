import { ConformanceContext } from "@hireport/core/testing";
import type { WebhookStorage } from "../store/webhook-storage";
import type { WebhookConformanceInstance } from "./types";

/** Core's conformance context, on a storage that holds the webhook store. */
export class WebhookConformanceContext extends ConformanceContext {
  #storage: WebhookStorage | null = null;

  attachWebhooks(instance: WebhookConformanceInstance, targetName: string): void {
    this.#storage = instance.storage;
    this.attach(instance, targetName);
  }

  override async detach(): Promise<void> {
    this.#storage = null;
    await super.detach();
  }

  override get storage(): WebhookStorage {
    if (!this.#storage) throw new Error("The conformance target's setup() did not run or failed.");
    return this.#storage;
  }
}
