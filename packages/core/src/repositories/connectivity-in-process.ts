/**
 * The connectivity check of a small repository without a git process: every object reachable from
 * HEAD and every ref is present — commits, trees and tags read and parsed, blobs found (a pack
 * index entry or a loose object's file, as git looks a blob up) — which is
 * what `git rev-list --objects --all` checks (connectivity.ts). Only its "connected" is trusted:
 * anything else ("ask git") — a missing or unreadable object, a layout or size this reader leaves to
 * git (alternates, grafts, a shallow or sha256 repository, more objects than the bound) — is
 * decided by git, whose message then explains a failure.
 *
 * Why: a bulk storage move checks every repository it copies, and for a small one git's start-up is
 * nearly all of the check (about 2 ms of CPU against 0.1 ms to read a dozen small objects here).
 * The walk is synchronous and bounded ({@link InProcessLimits}), so it holds the event loop for
 * about as long as a SQLite statement does.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_READER_LIMITS, objectReader, type ObjectType } from "./object-store-reader.js";
import { readRefFilesSync } from "./ref-files.js";
import { present } from "./present.js";

export interface InProcessLimits {
  /** Objects visited at most; a repository with more is checked by git. */
  maxObjects: number;
}

export const DEFAULT_IN_PROCESS_LIMITS: InProcessLimits = { maxObjects: 512 };

/** Files whose presence means git must walk the repository (objects elsewhere, history cut or rewritten). */
const GIT_ONLY = ["objects/info/alternates", "objects/info/grafts", "shallow", "reftable", "info/grafts"];
const HEX40 = /^[0-9a-f]{40}$/;

/** `"connected"` when every reachable object is present; `"ask-git"` otherwise (see the module comment). */
export function connectivityInProcess(gitDir: string, limits: InProcessLimits = DEFAULT_IN_PROCESS_LIMITS): "connected" | "ask-git" {
  try {
    if (GIT_ONLY.some((file) => present(join(gitDir, file)))) return "ask-git";
    // Repository extensions (sha256 objects, partial clones, other ref storage): git's business.
    if (/^\s*\[extensions\]/im.test(readFileSync(join(gitDir, "config"), "utf8"))) return "ask-git";
    const refs = readRefFilesSync(gitDir);
    if (refs === null) return "ask-git";
    const tips = refs === "" ? [] : refs.split("\n").map((line) => line.slice(0, line.indexOf(" ")));
    const head = readFileSync(join(gitDir, "HEAD"), "utf8").trim();
    if (HEX40.test(head)) tips.push(head);
    else if (!head.startsWith("ref: ")) return "ask-git";
    return walk(gitDir, tips, limits) ? "connected" : "ask-git";
  } catch {
    return "ask-git";
  }
}

function walk(gitDir: string, tips: string[], limits: InProcessLimits): boolean {
  const reader = objectReader(gitDir, DEFAULT_READER_LIMITS);
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

