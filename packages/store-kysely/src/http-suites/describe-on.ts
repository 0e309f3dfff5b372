/**
 * Every HTTP suite of core on instances backed by this store, through the node handler (one file
 * per database, so the three runs go in parallel — vitest project `store-kysely-http`). The
 * adapters run the same suites on the in-memory reference store; these runs catch what only SQL does.
 */
import { createServer } from "node:http";
import type { Store } from "@forgekit/core";
import { createNodeHandler } from "@forgekit/core/node";
import { allHttpSuites, describeHttpSuite, listenOn, useTestStore, type HttpSuite } from "@forgekit/core/testing";
import { afterAll, beforeAll, describe } from "vitest";

const serve = (instance: Parameters<typeof createNodeHandler>[0]) => listenOn(createServer(createNodeHandler(instance)));

/**
 * Part `part` (1-based) of `parts` of every HTTP suite: every `parts`-th suite from the `part`-th on.
 * A database's suites are spread over several files so that vitest runs them side by side: most of
 * their time is the database server migrating fresh schemas, not this process's CPU.
 */
export function suitePart(part: number, parts: number, suites: readonly HttpSuite[] = allHttpSuites): readonly HttpSuite[] {
  return suites.filter((_, i) => i % parts === part - 1);
}

/** Runs `suites` (default: every suite) with `createTestForgekit()` building its instances on `factory`'s stores. */
export function describeOn(
  name: string,
  factory: () => Store | Promise<Store>,
  cleanup: () => Promise<void> = async () => {},
  suites: readonly HttpSuite[] = allHttpSuites,
): void {
  describe(`HTTP suites on ${name}`, () => {
    let previous: ReturnType<typeof useTestStore> | undefined;
    beforeAll(() => {
      previous = useTestStore(factory);
    });
    // Dropping a hundred databases can take minutes on a loaded machine.
    afterAll(async () => {
      if (previous) useTestStore(previous);
      await cleanup();
    }, 900_000);
    describeHttpSuite(`node:http + ${name}`, serve, suites);
  });
}
