/** In-memory {@link GroupMilestoneRepository}; mirrors the SQL store. */
import type { GroupMilestone, GroupMilestoneRepository } from "../ports/group-milestones-store.js";
import { offsetPage } from "./pagination.js";
import { copy, type Runner } from "./state.js";

const lowerContains = (haystack: string, needle: string) => haystack.toLowerCase().includes(needle.toLowerCase());

/** The in-memory group-milestone repository. */
export function memoryGroupMilestones(run: Runner): GroupMilestoneRepository {
  return {
    create: (input, now) =>
      run((state) => {
        if (!state.namespaces.has(input.groupId)) throw new Error(`group ${input.groupId} does not exist`);
        const table = state.activity.groupMilestones;
        let iid = 1;
        for (const row of table.values()) {
          if (row.groupId !== input.groupId) continue;
          if (row.title === input.title) return null;
          iid = Math.max(iid, row.iid + 1);
        }
        const milestone: GroupMilestone = { id: ++state.activity.seq.milestones, ...input, iid, state: "active", createdAt: new Date(now), updatedAt: new Date(now) };
        table.set(milestone.id, milestone);
        return copy(milestone);
      }),
    findById: (id) =>
      run((state) => {
        const row = state.activity.groupMilestones.get(id);
        return row === undefined ? null : copy(row);
      }),
    update: (id, patch) =>
      run((state) => {
        const table = state.activity.groupMilestones;
        const row = table.get(id);
        if (row === undefined) return null;
        if (patch.title !== undefined) for (const other of table.values()) if (other.id !== id && other.groupId === row.groupId && other.title === patch.title) return null;
        const updated: GroupMilestone = {
          ...row,
          ...(patch.title === undefined ? {} : { title: patch.title }),
          ...(patch.description === undefined ? {} : { description: patch.description }),
          ...(patch.state === undefined ? {} : { state: patch.state }),
          ...(patch.startDate === undefined ? {} : { startDate: patch.startDate }),
          ...(patch.dueDate === undefined ? {} : { dueDate: patch.dueDate }),
          ...(patch.updatedAt === undefined ? {} : { updatedAt: new Date(patch.updatedAt) }),
        };
        table.set(id, updated);
        return copy(updated);
      }),
    list: (filter, page) =>
      run((state) => {
        const rows = [...state.activity.groupMilestones.values()]
          .filter((m) => m.groupId === filter.groupId)
          .filter((m) => filter.state === undefined || m.state === filter.state)
          .filter((m) => filter.title === undefined || m.title === filter.title)
          .filter((m) => filter.iids === undefined || filter.iids.includes(m.iid))
          .filter((m) => filter.search === undefined || lowerContains(m.title, filter.search) || lowerContains(m.description, filter.search))
          .sort((a, b) => b.iid - a.iid);
        return offsetPage(rows, page, copy);
      }),
    remove: (id) => run((state) => state.activity.groupMilestones.delete(id)),
  };
}
