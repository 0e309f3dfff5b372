/**
 * Every HTTP suite of core on instances backed by this store, through the node handler (one file
 * per database, so the three runs go in parallel — vitest project `store-kysely-http`). The
 * adapters run the same suites on the in-memory reference store; these runs catch what only SQL does.
 */
import { createServer } from "node:http";
import type { Store } from "@forgekit/core";
import { createNodeHandler } from "@forgekit/core/node";
import { allHttpSuites, describeHttpSuite, listenOn, useTestStore } from "@forgekit/core/testing";
import { afterAll, beforeAll, describe } from "vitest";

const serve = (instance: Parameters<typeof createNodeHandler>[0]) => listenOn(createServer(createNodeHandler(instance)));

/** Runs every suite with `createTestForgekit()` building its instances on `factory`'s stores. */
export function describeOn(name: string, factory: () => Store | Promise<Store>, cleanup: () => Promise<void> = async () => {}): void {
  describe(`HTTP suites on ${name}`, () => {
    let previous: ReturnType<typeof useTestStore> | undefined;
    beforeAll(() => {
      previous = useTestStore(factory);
    });
    afterAll(async () => {
      if (previous) useTestStore(previous);
      await cleanup();
    });
    describeHttpSuite(`node:http + ${name}`, serve, allHttpSuites);
  });
}
