/** Paged reading of the forge's lists for the import stages. */
import type { ImportRun } from "../run-kit.js";
import type { ExtForgePage } from "./types.js";

/** Reads a paged list from the stage's resume page, writing each page. */
export async function pages<T>(
  run: ImportRun,
  stage: string,
  list: (startPage: number) => AsyncIterable<ExtForgePage<T>>,
  write: (page: ExtForgePage<T>, next: { stage: string; page: number }) => Promise<void>,
): Promise<void> {
  const start = run.resumeOf(stage)?.page ?? 1;
  for await (const page of list(start)) await write(page, { stage, page: page.page + 1 });
}
