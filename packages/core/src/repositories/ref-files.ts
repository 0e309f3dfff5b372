/**
 * A repository's refs read from its files in git's files backend (`packed-refs`, loose refs under
 * `refs/`; a loose ref wins over its packed entry) — the `<object> <ref>` lines `git for-each-ref`
 * prints, without a git process. Synchronous and bounded (at most {@link MAX_REF_FILES} loose refs,
 * a few small reads each), so a caller on the event loop holds it for well under a millisecond on a
 * small repository; `null` — ask git — for anything else: a reftable repository, a symbolic ref, a
 * lock or unreadable file, a name or value git would treat specially, more loose refs than the bound.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { present } from "./present.js";

/** Loose refs read at most before leaving a repository to git. */
export const MAX_REF_FILES = 256;

const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

export function readRefFilesSync(gitDir: string): string | null {
  try {
    if (present(join(gitDir, "reftable"))) return null;
    const refs = new Map<string, string>();
    let packed = "";
    try {
      packed = readFileSync(join(gitDir, "packed-refs"), "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") return null;
    }
    for (const line of packed.split("\n")) {
      if (line === "" || line.startsWith("#") || line.startsWith("^")) continue;
      const space = line.indexOf(" ");
      const id = line.slice(0, space);
      const name = line.slice(space + 1);
      if (space < 0 || !OBJECT_ID.test(id) || !name.startsWith("refs/")) return null;
      refs.set(name, id);
    }
    let files = 0;
    const walk = (relative: string): boolean => {
      for (const entry of readdirSync(join(gitDir, relative), { withFileTypes: true })) {
        const name = `${relative}/${entry.name}`;
        if (entry.isDirectory()) {
          if (!walk(name)) return false;
        } else if (entry.isFile() && !entry.name.endsWith(".lock")) {
          if ((files += 1) > MAX_REF_FILES) return false;
          const id = readFileSync(join(gitDir, name), "utf8").trim();
          if (!OBJECT_ID.test(id)) return false;
          refs.set(name, id);
        } else return false;
      }
      return true;
    };
    if (present(join(gitDir, "refs")) && !walk("refs")) return null;
    return [...refs].map(([name, id]) => `${id} ${name}`).join("\n");
  } catch {
    return null;
  }
}

/** {@link readRefFilesSync} for callers that await. */
export const readRefFiles = async (gitDir: string): Promise<string | null> => readRefFilesSync(gitDir);

