/** Waiting for a project import to reach a state, for tests of the import jobs. */
import type { ProjectImport } from "../ports/imports-store.js";
import type { Store } from "../ports/store.js";

/**
 * The project's import record once `done` holds for it, polled every 25 ms; throws with the last
 * record seen after `timeoutMs` (generous by default: workers share the machine).
 */
export async function waitForImport(store: Pick<Store, "imports">, projectId: number, done: (record: ProjectImport) => boolean, timeoutMs = 120_000): Promise<ProjectImport> {
  const started = Date.now();
  for (;;) {
    const record = await store.imports.projects.find(projectId);
    if (record !== null && done(record)) return record;
    if (Date.now() - started > timeoutMs) throw new Error(`import did not settle: ${JSON.stringify(record)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
