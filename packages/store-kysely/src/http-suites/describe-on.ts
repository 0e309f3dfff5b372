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

/** Seconds each suite took on each database (suite-costs.json, written by tools/test-costs/refresh.mjs). */
export type SuiteCosts = Readonly<Record<string, number>>;

/**
 * Part `part` (1-based) of `parts` of every HTTP suite, the parts balanced by `costs` (seconds per
 * suite name; a suite without an entry counts as the median): the costliest suite goes to the
 * cheapest part so far, then the next. A database's suites are spread over several files so that
 * vitest runs them side by side: most of their time is the database server migrating fresh schemas,
 * not this process's CPU. Taking every `parts`-th suite instead put 335 s of MySQL's 399 in one part.
 * Each part keeps the suites' order; every suite is in exactly one part.
 */
export function suitePart(part: number, parts: number, costs: SuiteCosts = {}, suites: readonly HttpSuite[] = allHttpSuites): readonly HttpSuite[] {
  const known = Object.values(costs).sort((a, b) => a - b);
  const fallback = known.length === 0 ? 1 : (known[Math.floor(known.length / 2)] ?? 1);
  const cost = (suite: HttpSuite) => costs[suite.name] ?? fallback;
  const loads = Array.from({ length: parts }, () => 0);
  const partOf = new Map<HttpSuite, number>();
  const byCost = suites.map((suite, index) => ({ suite, index })).sort((a, b) => cost(b.suite) - cost(a.suite) || a.index - b.index);
  for (const { suite } of byCost) {
    const lightest = loads.indexOf(Math.min(...loads));
    partOf.set(suite, lightest);
    loads[lightest] = (loads[lightest] ?? 0) + cost(suite);
  }
  return suites.filter((suite) => partOf.get(suite) === part - 1);
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
