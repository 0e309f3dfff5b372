/**
 * The file work of repository copies, removals and connectivity checks (a storage move copies,
 * checks and removes every repository of a shard), run with synchronous `fs` calls in a small pool
 * of worker threads.
 *
 * Why: a small repository's copy or removal is a hundred-odd file-system calls. Each one through
 * `fs.promises` costs the event loop a dispatch and a promise, and a bulk move spent most of its
 * main-thread time on exactly that (profile: `readdir`, `mkdir`, `rmdir`, `unlink` dispatches).
 * In a worker the same calls run back to back, and the host's event loop stays free.
 *
 * The functions below run in the workers from their source text (`Function.prototype.toString`), so
 * they use nothing but their parameters and globals — no imports — and so they work the same from
 * the TypeScript sources, the ESM build and the CJS build. Where a worker cannot be started, the
 * same function runs in this thread.
 */
import * as fs from "node:fs";
import { availableParallelism } from "node:os";
import * as path from "node:path";
import { Worker } from "node:worker_threads";
import { objectReading } from "./repository-objects.js";
import { reading, repositoryReading } from "./repository-reading.js";

type Fs = typeof import("node:fs");
type Path = typeof import("node:path");

/** `code` of the error for an entry that is neither a file nor a folder. */
export const NOT_FILE_OR_FOLDER = "FORGEKIT_NOT_FILE_OR_FOLDER";

/**
 * Copies a repository's directory tree to `to` (which must not exist): folders made, files copied
 * (copy-on-write where the file system can), never over an existing file. Loose objects and pack
 * files are hard-linked instead when the file system allows (git writes them once, by rename, and
 * never changes them; `git clone --local` shares them the same way); every other file — config,
 * refs, HEAD, hooks — is a copy of its own. Anything but files and folders (a symlink, a socket) is
 * refused: a bare repository has none, and following one could copy something from outside the shard.
 */
export function copyTreeSync(fs: Fs, path: Path, from: string, to: string): void {
  const immutableFolder = /^objects\/(?:[0-9a-f]{2}|pack)$/;
  // Why a hard link cannot be made where a copy can (another file system, links not supported or allowed).
  const noLink = ["EXDEV", "EPERM", "ENOTSUP", "EOPNOTSUPP", "EMLINK", "ENOSYS"];
  let linksAllowed = true;
  const copy = (source: string, target: string, relative: string): void => {
    fs.mkdirSync(target);
    const immutable = immutableFolder.test(relative);
    for (const entry of fs.readdirSync(source, { withFileTypes: true })) {
      const from = path.join(source, entry.name);
      const to = path.join(target, entry.name);
      if (entry.isDirectory()) {
        copy(from, to, relative === "" ? entry.name : `${relative}/${entry.name}`);
        continue;
      }
      if (!entry.isFile()) throw Object.assign(new Error(`${from} is neither a file nor a folder`), { code: "FORGEKIT_NOT_FILE_OR_FOLDER" });
      if (immutable && linksAllowed) {
        try {
          fs.linkSync(from, to);
          continue;
        } catch (error) {
          // Another file system (or no links there): copy this file and every later one.
          if (!noLink.includes(String((error as { code?: unknown }).code))) throw error;
          linksAllowed = false;
        }
      }
      fs.copyFileSync(from, to, fs.constants.COPYFILE_EXCL | fs.constants.COPYFILE_FICLONE);
    }
  };
  copy(from, to, "");
}

/**
 * Removes a folder and everything in it: one `readdir` per folder, its files unlinked, its folders
 * removed depth first — a third of the calls `rm -r` makes in Node (which tries `rmdir` and `lstat`
 * on every entry). A symlink is unlinked, never followed.
 */
export function removeTreeSync(fs: Fs, path: Path, dir: string): void {
  const remove = (folder: string): void => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const child = path.join(folder, entry.name);
      if (entry.isDirectory()) remove(child);
      else fs.unlinkSync(child);
    }
    fs.rmdirSync(folder);
  };
  remove(dir);
}

type Operation = "copyTree" | "removeTree" | "connectivity";
type Verdict = "connected" | "ask-git";

/** The worker's program: the operations' source text and a message loop. */
const WORKER_SOURCE = `"use strict";
// Build tools that keep function names wrap nested functions in __name(); names do not matter here.
const __name = (fn) => fn;
const fs = require("node:fs");
const path = require("node:path");
const zlib = require("node:zlib");
const { parentPort } = require("node:worker_threads");
const modules = { fs, path, zlib };
const reading = (${repositoryReading.toString()})(modules, (${objectReading.toString()})(modules));
const copyTree = ${copyTreeSync.toString()};
const removeTree = ${removeTreeSync.toString()};
const operations = {
  copyTree: (from, to) => copyTree(fs, path, from, to),
  removeTree: (dir) => removeTree(fs, path, dir),
  connectivity: (gitDir) => reading.connectivity(gitDir),
};
parentPort.on("message", ({ id, op, args }) => {
  try {
    parentPort.postMessage({ id, result: operations[op](...args) });
  } catch (error) {
    parentPort.postMessage({ id, error: { message: String((error && error.message) || error), code: error && error.code } });
  }
});`;

/** How long a worker without work stays (ms). */
const IDLE_MS = 2_000;

interface Task {
  id: number;
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
}

interface PoolWorker {
  worker: Worker;
  tasks: Map<number, Task>;
  idle: NodeJS.Timeout | undefined;
}

/** Runs copies and removals in worker threads (see the module comment). */
export interface FileWork {
  /** {@link copyTreeSync} off the event loop. */
  copyTree(from: string, to: string): Promise<void>;
  /** {@link removeTreeSync} off the event loop. */
  removeTree(dir: string): Promise<void>;
  /** The connectivity check without git (repository-reading.ts) off the event loop. */
  connectivity(gitDir: string): Promise<Verdict>;
}

/** A pool of at most `size` workers (default: the CPUs, at most 4), started when work comes and ended when idle. */
export function fileWorkPool(size = Math.min(4, availableParallelism())): FileWork {
  const workers = new Set<PoolWorker>();
  let nextId = 0;
  let workersUnavailable = false;

  const start = (): PoolWorker | undefined => {
    let worker: Worker;
    try {
      worker = new Worker(WORKER_SOURCE, { eval: true });
    } catch {
      workersUnavailable = true;
      return undefined;
    }
    worker.unref();
    const entry: PoolWorker = { worker, tasks: new Map(), idle: undefined };
    const fail = (error: Error) => {
      workers.delete(entry);
      clearTimeout(entry.idle);
      for (const task of entry.tasks.values()) task.reject(error);
      entry.tasks.clear();
    };
    worker.on("message", (message: { id: number; result?: unknown; error?: { message: string; code?: string } }) => {
      const task = entry.tasks.get(message.id);
      if (task === undefined) return;
      entry.tasks.delete(message.id);
      if (message.error === undefined) task.resolve(message.result);
      else task.reject(Object.assign(new Error(message.error.message), message.error.code === undefined ? {} : { code: message.error.code }));
      if (entry.tasks.size === 0) {
        // Idle: it no longer keeps the process alive, and ends after a while.
        worker.unref();
        entry.idle = setTimeout(() => {
          workers.delete(entry);
          void worker.terminate();
        }, IDLE_MS);
        entry.idle.unref();
      }
    });
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`a file worker exited (code ${code}) before it answered`)));
    workers.add(entry);
    return entry;
  };

  const pick = (): PoolWorker | undefined => {
    let best: PoolWorker | undefined;
    for (const entry of workers) if (best === undefined || entry.tasks.size < best.tasks.size) best = entry;
    if (best !== undefined && (best.tasks.size === 0 || workers.size >= size)) return best;
    return start() ?? best;
  };

  const run = <T>(op: Operation, args: string[], inThisThread: () => T): Promise<T> => {
    const entry = workersUnavailable ? undefined : pick();
    if (entry === undefined) {
      // No worker threads here: the same work in this thread.
      return new Promise<T>((resolve) => resolve(inThisThread()));
    }
    return new Promise<T>((resolve, reject) => {
      const id = (nextId += 1);
      clearTimeout(entry.idle);
      // While it works for someone, the worker keeps the process alive (an awaited copy must finish).
      entry.worker.ref();
      entry.tasks.set(id, { id, resolve: resolve as (result: unknown) => void, reject });
      entry.worker.postMessage({ id, op, args });
    });
  };

  return {
    copyTree: (from, to) => run("copyTree", [from, to], () => copyTreeSync(fs, path, from, to)),
    removeTree: (dir) => run("removeTree", [dir], () => removeTreeSync(fs, path, dir)),
    connectivity: (gitDir) => run("connectivity", [gitDir], () => reading.connectivity(gitDir)),
  };
}
