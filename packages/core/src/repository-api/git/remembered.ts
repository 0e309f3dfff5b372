/**
 * Answers about commits that never change, kept for the most recently asked questions. Object ids
 * name content, so the merge base of two commits, the diff between them, a trial merge or a
 * commit's parents are the same every time they are asked; merge requests ask them again on every
 * list, show and update with unchanged tips. Only questions about full object ids are kept (never
 * about refs, which move), keyed by repository; a failure, and an answer `keep` refuses (one that
 * reports git failing rather than the commits' content), is forgotten at once.
 */
import { OBJECT_ID, type GitRepo } from "./repo.js";

const KEPT = 4000;
const answers = new Map<string, Promise<unknown>>();

/** `compute()`'s answer to `question` about the object ids `ids` of `repo`, computed once while it is kept. */
export function remembered<T>(repo: GitRepo, question: string, ids: readonly string[], compute: () => Promise<T>, keep: (answer: T) => boolean = () => true): Promise<T> {
  if (!ids.every((id) => OBJECT_ID.test(id))) return compute();
  const key = `${repo.directory}\0${question}\0${ids.join("\0")}`;
  const known = answers.get(key) as Promise<T> | undefined;
  if (known !== undefined) {
    // Most recently used last: the oldest question is the first one dropped.
    answers.delete(key);
    answers.set(key, known);
    return known;
  }
  const made = compute();
  answers.set(key, made);
  const forget = () => {
    if (answers.get(key) === made) answers.delete(key);
  };
  made.then((answer) => (keep(answer) ? undefined : forget()), forget);
  if (answers.size > KEPT) answers.delete(answers.keys().next().value as string);
  return made;
}
