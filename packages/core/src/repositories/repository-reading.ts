/**
 * Reading a repository straight from its files, without a git process: its refs (the files
 * backend: `packed-refs` and loose refs, as `git for-each-ref` lists them) and, with its objects
 * (repository-objects.ts), the
 * connectivity check of a small repository — every object reachable from HEAD and every ref
 * present, commits, trees and tags read and parsed, blobs looked up as git looks them up (a pack
 * index entry, or a stat of the loose file): what `git rev-list --objects --all` checks.
 *
 * Everything is synchronous and bounded: at most 256 loose refs, 512 objects, a 256 KiB pack index,
 * 1 MiB per object, delta chains of 50. Anything beyond, or a layout this reader leaves to git
 * (reftable, symbolic refs, alternates, grafts, shallow, sha256 or another extension, promisor
 * packs), answers "ask git" (`null`, `"ask-git"`); a connectivity failure is never decided here —
 * git decides it, and words it (connectivity.ts).
 *
 * Why: a bulk storage move reads the refs of every repository twice and checks every copy, and for
 * a small repository git's start-up is nearly all of a check (about 2 ms of CPU against 0.1 ms to
 * read a dozen small objects here). The reader is one function of its modules and the object
 * reader, using nothing else, so that the file workers (file-work.ts) run the same code from its
 * source text, off the host's event loop.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as zlib from "node:zlib";
import { objectReaderOf, type ObjectReader, type ObjectReaderOf, type ObjectType, type ReadingModules } from "./repository-objects.js";

export interface InProcessLimits {
  /** Objects visited at most; a repository with more is checked by git. */
  maxObjects: number;
}

export interface RepositoryReading {
  /** The `<object> <ref>` lines of the repository's refs, or null: ask git. */
  readRefFiles: (gitDir: string) => string | null;
  /** `"connected"` when every reachable object is present; `"ask-git"` otherwise. */
  connectivity: (gitDir: string, limits?: InProcessLimits) => "connected" | "ask-git";
  /** A reader of the repository's objects; throws for layouts only git should read. */
  objectReader: (gitDir: string) => ObjectReader;
}

/** The reader on the given modules and object reader (see the module comment). */
export function repositoryReading({ fs, path }: ReadingModules, objectReader: ObjectReaderOf): RepositoryReading {
  /** Loose refs read at most before leaving a repository to git. */
  const MAX_REF_FILES = 256;
  const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
  const DEFAULT_IN_PROCESS_LIMITS: InProcessLimits = { maxObjects: 512 };
  /** Files whose presence means git must walk the repository (objects elsewhere, history cut or rewritten). */
  const GIT_ONLY = ["objects/info/alternates", "objects/info/grafts", "shallow", "reftable", "info/grafts"];
  const HEX40 = /^[0-9a-f]{40}$/;
  const present = (file: string): boolean => fs.statSync(file, { throwIfNoEntry: false }) !== undefined;

  function readRefFilesSync(gitDir: string): string | null {
    try {
      if (present(path.join(gitDir, "reftable"))) return null;
      const refs = new Map<string, string>();
      let packed = "";
      try {
        packed = fs.readFileSync(path.join(gitDir, "packed-refs"), "utf8");
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
        for (const entry of fs.readdirSync(path.join(gitDir, relative), { withFileTypes: true })) {
          const name = `${relative}/${entry.name}`;
          if (entry.isDirectory()) {
            if (!walk(name)) return false;
          } else if (entry.isFile() && !entry.name.endsWith(".lock")) {
            if ((files += 1) > MAX_REF_FILES) return false;
            const id = fs.readFileSync(path.join(gitDir, name), "utf8").trim();
            if (!OBJECT_ID.test(id)) return false;
            refs.set(name, id);
          } else return false;
        }
        return true;
      };
      if (present(path.join(gitDir, "refs")) && !walk("refs")) return null;
      return [...refs].map(([name, id]) => `${id} ${name}`).join("\n");
    } catch {
      return null;
    }
  }

  /** `"connected"` when every reachable object is present; `"ask-git"` otherwise (see the module comment). */
  function connectivityInProcess(gitDir: string, limits: InProcessLimits = DEFAULT_IN_PROCESS_LIMITS): "connected" | "ask-git" {
    try {
      if (GIT_ONLY.some((file) => present(path.join(gitDir, file)))) return "ask-git";
      // Repository extensions (sha256 objects, partial clones, other ref storage): git's business.
      if (/^\s*\[extensions\]/im.test(fs.readFileSync(path.join(gitDir, "config"), "utf8"))) return "ask-git";
      const refs = readRefFilesSync(gitDir);
      if (refs === null) return "ask-git";
      const tips = refs === "" ? [] : refs.split("\n").map((line) => line.slice(0, line.indexOf(" ")));
      const head = fs.readFileSync(path.join(gitDir, "HEAD"), "utf8").trim();
      if (HEX40.test(head)) tips.push(head);
      else if (!head.startsWith("ref: ")) return "ask-git";
      return walk(gitDir, tips, limits) ? "connected" : "ask-git";
    } catch {
      return "ask-git";
    }
  }

  function walk(gitDir: string, tips: string[], limits: InProcessLimits): boolean {
    const reader = objectReader(gitDir);
    try {
      const seen = new Set<string>();
      const todo: [string, ObjectType | null][] = tips.map((id) => [id, null]);
      for (let next = todo.pop(); next !== undefined; next = todo.pop()) {
        const [id, expected] = next;
        if (!HEX40.test(id)) return false;
        if (seen.has(id)) continue;
        seen.add(id);
        if (seen.size > limits.maxObjects) return false;
        if (expected === "blob") {
          // What git checks of a blob: that it is there (a type mismatch is found where the blob is read).
          if (!reader.has(id)) return false;
          continue;
        }
        const object = reader.read(id);
        if (object === null || (expected !== null && object.type !== expected)) return false;
        if (object.type === "commit") {
          const header = object.data.toString("latin1", 0, headerEnd(object.data));
          let sawTree = false;
          for (const line of header.split("\n")) {
            if (line.startsWith("tree ")) {
              if (sawTree) return false;
              sawTree = true;
              todo.push([line.slice(5), "tree"]);
            } else if (line.startsWith("parent ")) todo.push([line.slice(7), "commit"]);
          }
          if (!sawTree) return false;
        } else if (object.type === "tag") {
          const header = object.data.toString("latin1", 0, headerEnd(object.data));
          const target = /^object ([0-9a-f]{40})\ntype (commit|tree|blob|tag)\n/.exec(header);
          if (target === null) return false;
          todo.push([target[1] as string, target[2] as ObjectType]);
        } else if (object.type === "tree") {
          const entries = treeEntries(object.data);
          if (entries === null) return false;
          todo.push(...entries);
        }
      }
      return true;
    } finally {
      reader.close();
    }
  }

  /** The end of a commit's or tag's header (the blank line), or its length. */
  function headerEnd(data: Buffer): number {
    const blank = data.indexOf("\n\n");
    return blank < 0 ? data.length : blank + 1;
  }

  /** A tree's entries to visit: sub-trees and blobs (submodule commits are another repository's); null when malformed. */
  function treeEntries(data: Buffer): [string, ObjectType][] | null {
    const entries: [string, ObjectType][] = [];
    for (let pos = 0; pos < data.length; ) {
      const space = data.indexOf(0x20, pos);
      const nul = data.indexOf(0, space + 1);
      if (space < 0 || nul < 0 || nul + 21 > data.length) return null;
      const mode = data.toString("latin1", pos, space);
      const id = data.toString("hex", nul + 1, nul + 21);
      pos = nul + 21;
      if (mode === "40000") entries.push([id, "tree"]);
      else if (mode === "160000") continue;
      else if (mode === "100644" || mode === "100755" || mode === "120000" || mode === "100664") entries.push([id, "blob"]);
      else return null;
    }
    return entries;
  }

  return { readRefFiles: readRefFilesSync, connectivity: connectivityInProcess, objectReader };
}

/** The reader on this thread's modules. */
export const reading: RepositoryReading = repositoryReading({ fs, path, zlib }, objectReaderOf);
