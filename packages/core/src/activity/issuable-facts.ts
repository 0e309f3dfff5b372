/**
 * Facts of an issue or merge request that the reference computes from other stored state rather
 * than storing: its task list progress (from the description) and who closed it (from its notes);
 * and the `milestone` list filter both lists read the same way.
 */
import type { Note } from "./types.js";

/**
 * Who closed an issue or merge request that is closed now: the author of its latest "closed" system
 * note (a close by a merge or a commit notes "closed via …"); null while it is open or merged, as the
 * reference clears `closed_by` on reopen.
 */
export function closerId(state: string, notes: readonly Pick<Note, "system" | "body" | "authorId">[]): number | null {
  if (state !== "closed") return null;
  return notes.filter((n) => n.system && (n.body === "closed" || n.body.startsWith("closed via "))).at(-1)?.authorId ?? null;
}

/** Task list items of a Markdown description (`- [ ]`, `* [x]`, `1. [X]`), as the reference counts them. */
export function taskCompletion(description: string): { count: number; completed_count: number } {
  let count = 0;
  let completed = 0;
  for (const match of description.matchAll(/^[ \t]*(?:[-*+]|\d+[.)])[ \t]+\[([ xX])\]/gm)) {
    count += 1;
    if (match[1] !== " ") completed += 1;
  }
  return { count, completed_count: completed };
}

/** Reference `milestone` of issue and merge request lists: a milestone title, or `None` / `Any` (case-insensitive). */
export function milestoneFilter(value: string): { title: string } | "none" | "any" {
  const m = value.toLowerCase();
  return m === "none" ? "none" : m === "any" ? "any" : { title: value };
}
