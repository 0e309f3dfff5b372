/** The path suggestion of `GET /namespaces/:id/exists` (reference `Namespace.clean_path` with `Uniquify`). */

/** Most numbers tried before giving up on a suggestion (a bound, so a crafted request cannot loop long). */
const MAX_TRIES = 1000;

/** The first `<path><n>` (n = 1, 2, …) that `taken` says is free; past {@link MAX_TRIES} taken ones, the next number unchecked. */
export async function pathSuggestion(path: string, taken: (candidate: string) => Promise<boolean>): Promise<string> {
  for (let n = 1; n <= MAX_TRIES; n++) {
    const candidate = `${path}${n}`;
    if (!(await taken(candidate))) return candidate;
  }
  return `${path}${MAX_TRIES + 1}`;
}
