import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import type { WebhookDispatcherOptions } from "../../src/index";
import { createTestCertificate, type TestCertificate } from "./certificate";
import { type DeliveryFixture, deliveryFixture } from "./fixture";
import { type Receiver, startReceiver } from "./receiver";
import type { StorageFactory } from "./storages";

/** What a test of a {@link storageSuite} opens; each is closed after the test, the newest first. */
export interface StorageSuite {
  /** The certificate the receivers serve and the fixtures' dispatchers trust (made before the first test). */
  readonly certificate: TestCertificate;
  /** A local receiver: https with the test certificate, or plain http with `{ tls: false }`. */
  receiver(options?: { tls?: boolean }): Promise<Receiver>;
  /** A dispatcher on a fresh storage of the factory (see {@link deliveryFixture}). */
  fixture(overrides?: Partial<WebhookDispatcherOptions>): Promise<DeliveryFixture>;
  /** Runs `close` after the test. */
  defer(close: () => Promise<unknown>): void;
}

/**
 * The set-up of a suite on one storage factory, called inside its `describe`: the tests are skipped
 * when the factory's server cannot be reached (outside CI, see {@link StorageFactory.available}),
 * what a test opens is closed after it, and the factory is disposed of after the suite.
 */
export function storageSuite(factory: StorageFactory): StorageSuite {
  const open: Array<() => Promise<unknown>> = [];
  let available = true;
  let certificate: TestCertificate | undefined;
  const closeAll = async () => {
    for (const close of open.splice(0).reverse()) await close();
  };
  beforeAll(async () => {
    certificate = createTestCertificate();
    available = (await factory.available?.()) ?? true;
  });
  beforeEach((context) => {
    if (!available) context.skip();
  });
  afterEach(closeAll);
  afterAll(async () => {
    await closeAll();
    await factory.dispose?.();
  });

  const suite: StorageSuite = {
    get certificate() {
      if (!certificate) throw new Error("The test certificate is made before the suite's first test.");
      return certificate;
    },
    async receiver({ tls = true } = {}) {
      const started = await startReceiver(tls ? { tls: suite.certificate } : {});
      open.push(() => started.close());
      return started;
    },
    async fixture(overrides = {}) {
      const created = await deliveryFixture(factory, suite.certificate, overrides);
      open.push(() => created.close());
      return created;
    },
    defer(close) {
      open.push(close);
    },
  };
  return suite;
}
