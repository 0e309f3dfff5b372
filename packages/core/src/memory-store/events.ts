/** In-memory EventRepository: the feed and visibility rules of ports/activity-store.ts over plain Maps. */
import { AccessLevel, type Project } from "../accounts/types.js";
import { featureAvailableAt } from "../access/features.js";
import { eventFeature } from "../events/features.js";
import type { Event } from "../events/types.js";
import type { EventListFilter, EventRepository } from "../ports/activity-store.js";
import { openTo, projectLevel } from "./access.js";
import { offsetPage } from "./pagination.js";
import { copy, type MemoryState, type Runner } from "./state.js";
import { nullableCopy } from "./users.js";

/** Whether the audience of `event` admits a viewer with `level` on its project. */
function admitted(event: Event, filter: EventListFilter, level: number): boolean {
  const { viewer } = filter;
  if (viewer !== null && (viewer.admin || event.audienceUserId === viewer.userId)) return true;
  switch (event.audience) {
    case "project":
      return true;
    case "signed_in":
      return viewer !== null;
    case "members":
      return level >= AccessLevel.Guest;
    case "reporters":
      return level >= AccessLevel.Reporter;
  }
}

function inFeed(state: MemoryState, event: Event, project: Project, filter: EventListFilter): boolean {
  const { feed } = filter;
  switch (feed.kind) {
    case "author":
      return event.authorId === feed.authorId;
    case "project":
      return event.projectId === feed.projectId;
    case "authorized":
      return projectLevel(state, feed.userId, project, filter.now) >= AccessLevel.Guest;
  }
}

function listed(state: MemoryState, event: Event, filter: EventListFilter): boolean {
  if (event.projectId === null) return false;
  const project = state.projects.get(event.projectId);
  if (project === undefined || !inFeed(state, event, project, filter)) return false;
  if (filter.action !== undefined && event.action !== filter.action) return false;
  if (filter.targetType !== undefined && event.targetType !== filter.targetType) return false;
  const time = event.createdAt.getTime();
  if (filter.createdBefore !== undefined && !(time < filter.createdBefore.getTime())) return false;
  if (filter.createdAfter !== undefined && !(time > filter.createdAfter.getTime())) return false;
  const { viewer } = filter;
  const level = viewer === null ? 0 : projectLevel(state, viewer.userId, project, filter.now);
  if (!openTo(project.visibility, viewer) && level <= 0) return false;
  const feature = eventFeature(event);
  if (feature !== null && !featureAvailableAt(project, feature, level, viewer?.admin === true)) return false;
  return admitted(event, filter, level);
}

export function memoryEvents(run: Runner): EventRepository {
  return {
    insert: (input) =>
      run((state) => {
        const event: Event = { id: ++state.activity.seq.events, ...copy(input) };
        state.activity.events.set(event.id, event);
        return copy(event);
      }),
    findById: (id) => run((state) => nullableCopy(state.activity.events.get(id))),
    list: (filter, page) =>
      run((state) => {
        const direction = filter.sort === "asc" ? 1 : -1;
        const rows = [...state.activity.events.values()]
          .filter((event) => listed(state, event, filter))
          .sort((a, b) => direction * (a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id));
        return offsetPage(rows, page, copy);
      }),
    setAudience: (targets, audience, audienceUserId) =>
      run((state) => {
        let changed = 0;
        for (const event of [...state.activity.events.values()]) {
          if (!targets.some((t) => t.type === event.targetType && t.id === event.targetId)) continue;
          state.activity.events.set(event.id, { ...event, audience, audienceUserId });
          changed += 1;
        }
        return changed;
      }),
    deleteCreatedBefore: (cutoff, limit) =>
      run((state) => {
        if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${limit}`);
        const doomed = [...state.activity.events.values()]
          .filter((event) => event.createdAt.getTime() < cutoff.getTime())
          .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id)
          .slice(0, limit);
        for (const event of doomed) state.activity.events.delete(event.id);
        return doomed.length;
      }),
  };
}
