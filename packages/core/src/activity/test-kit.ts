/** Shared setup of the activity unit tests (not exported from the package). */
import type { User } from "../accounts/types.js";
import type { Event } from "../events/types.js";
import { createTestForgekit, must, type TestForgekit } from "../testing/fixtures.js";

/** A seeded instance and shortcuts to read feeds as the administrator. */
export async function activityKit(): Promise<TestForgekit & { feed(projectId: number, viewer?: User | null): Promise<Event[]> }> {
  const t = await createTestForgekit();
  return {
    ...t,
    feed: async (projectId, viewer = t.users.root) => (await must(t.fk.events.ofProject(viewer, projectId, {}, { kind: "offset", page: 1, perPage: 100 }))).items,
  };
}

/** `[action, targetType, targetIid]` of events, oldest first: compact expectations. */
export function summary(events: readonly Event[]): [string, string | null, number | null][] {
  return [...events].reverse().map((e) => [e.action, e.targetType, e.targetIid]);
}
