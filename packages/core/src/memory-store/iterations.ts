/** In-memory IterationRepository. */
import { iterationState, type Iteration } from "../iterations/types.js";
import type { IterationListFilter, IterationRepository } from "../ports/iterations-store.js";
import { offsetPage } from "./pagination.js";
import { copy, type MemoryState, type Runner } from "./state.js";
import type { StoredIteration } from "./tables.js";
import { compareText, contains } from "./text.js";

/** 1 + the number of the group's iterations starting earlier (start dates never repeat: no overlaps). */
function withSequence(state: MemoryState, row: StoredIteration): Iteration {
  let earlier = 0;
  for (const other of state.iterations.rows.values()) {
    if (other.groupId === row.groupId && other.startDate < row.startDate) earlier += 1;
  }
  return { ...copy(row), sequence: earlier + 1 };
}

function matches(row: StoredIteration, filter: IterationListFilter): boolean {
  if (!filter.groupIds.includes(row.groupId)) return false;
  if (filter.states !== undefined && !filter.states.includes(iterationState(row, filter.today))) return false;
  if (filter.search !== undefined && !contains(row.title, filter.search)) return false;
  if (filter.updatedBefore !== undefined && row.updatedAt.getTime() > filter.updatedBefore.getTime()) return false;
  if (filter.updatedAfter !== undefined && row.updatedAt.getTime() < filter.updatedAfter.getTime()) return false;
  return true;
}

function compare(a: StoredIteration, b: StoredIteration): number {
  if (a.dueDate !== b.dueDate) return a.dueDate < b.dueDate ? -1 : 1;
  return compareText(a.title, b.title) || a.id - b.id;
}

export function memoryIterations(run: Runner): IterationRepository {
  return {
    create: (input, now) =>
      run((state) => {
        if (!state.namespaces.has(input.groupId)) throw new Error(`group ${input.groupId} does not exist`);
        const siblings = [...state.iterations.rows.values()].filter((row) => row.groupId === input.groupId);
        if (siblings.some((row) => row.startDate <= input.dueDate && input.startDate <= row.dueDate)) return { refused: "dates_overlap" as const };
        if (siblings.some((row) => row.title === input.title)) return { refused: "title_taken" as const };
        const row: StoredIteration = {
          id: ++state.iterations.seq,
          iid: Math.max(0, ...siblings.map((sibling) => sibling.iid)) + 1,
          groupId: input.groupId,
          title: input.title,
          description: input.description,
          startDate: input.startDate,
          dueDate: input.dueDate,
          createdAt: new Date(now),
          updatedAt: new Date(now),
        };
        state.iterations.rows.set(row.id, row);
        return { created: withSequence(state, row) };
      }),
    findById: (id) =>
      run((state) => {
        const row = state.iterations.rows.get(id);
        return row === undefined ? null : withSequence(state, row);
      }),
    list: (filter, page) =>
      run((state) => {
        const rows = [...state.iterations.rows.values()].filter((row) => matches(row, filter)).sort(compare);
        const result = offsetPage(rows, page, (row) => row);
        return { ...result, items: result.items.map((row) => withSequence(state, row)) };
      }),
  };
}
