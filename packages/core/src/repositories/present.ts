/** Whether anything exists at a path. */
import { statSync } from "node:fs";

/**
 * One `stat`, synchronous: for a single call a dispatch to the thread pool costs the event loop
 * more than the call itself, and a missing path is an answer, not an exception.
 */
export function present(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false }) !== undefined;
}
