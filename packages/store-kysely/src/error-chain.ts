/**
 * The errors inside a failure, for the rules that read driver errors (resilience/driver-errors.ts
 * decides "unavailable", problems/ explains start-up failures): drivers and wrappers nest the
 * telling error in `cause` (core's storeUnavailable, Kysely, forgekit's own wrappers) or in an
 * AggregateError's `errors` (Node's happy-eyeballs connect, one error per address tried).
 */

/** Links read at most: chains are short; the bound only guards against cycles. */
const MAX_LINKS = 16;

/** `error` and the errors in its `cause` chain and aggregate lists, outermost first (breadth-first). */
export function* errorChain(error: unknown): Generator<object> {
  const queue: unknown[] = [error];
  for (let seen = 0; queue.length > 0 && seen < MAX_LINKS; seen += 1) {
    const at = queue.shift();
    if (typeof at !== "object" || at === null) continue;
    yield at;
    const { cause, errors } = at as { cause?: unknown; errors?: unknown };
    if (cause !== undefined) queue.push(cause);
    if (Array.isArray(errors)) queue.push(...(errors as unknown[]));
  }
}
