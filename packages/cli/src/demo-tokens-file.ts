/**
 * The demo's local secret files (demo only: they hold plaintext tokens and client secrets so that
 * re-running the seed can print them again; a real instance stores only digests and shows a token
 * once). A folder may serve several databases (two SQLite files side by side, or PostgreSQL and
 * MySQL demos run from one checkout), so every entry is kept under its database's key
 * (`databaseKey`, database.ts): seeding one database never invalidates another's tokens. Written with
 * mode 0600.
 *
 * `demo-tokens.json`: `{ note, databases: { <key>: { tokens: { <username>: { id, token } } } } }`.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

export interface DemoTokenEntry {
  id: number;
  token: string;
}

type Keyed = Record<string, Record<string, unknown>>;

/** The per-database sections of a demo file; a missing or unreadable file has none. */
function readSections(path: string): Keyed {
  try {
    const raw = JSON.parse(readFileSync(path, "utf8")) as { databases?: unknown } | null;
    const databases = raw?.databases;
    return typeof databases === "object" && databases !== null ? (databases as Keyed) : {};
  } catch {
    return {};
  }
}

/** One database's section of a demo file (`{}` when it has none). */
export function readDemoSection(path: string, database: string): Record<string, unknown> {
  const section = readSections(path)[database];
  return typeof section === "object" && section !== null ? section : {};
}

/** Replaces one database's section, keeping the others' (creating the file and its folder). */
export function writeDemoSection(path: string, database: string, section: Record<string, unknown>, note: string): void {
  const databases = { ...readSections(path), [database]: section };
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify({ note, databases }, null, 2)}\n`, { mode: 0o600 });
}

const NOTE = "forgekit demo tokens: plaintext kept for the local demo only. Never do this for real tokens.";

/** The tokens kept for `database`; none when the file or its entry is missing (the seed then issues new tokens). */
export function readDemoTokens(path: string, database: string): Record<string, DemoTokenEntry> {
  const tokens = readDemoSection(path, database)["tokens"];
  if (typeof tokens !== "object" || tokens === null) return {};
  const result: Record<string, DemoTokenEntry> = {};
  for (const [username, entry] of Object.entries(tokens as Record<string, unknown>)) {
    const e = entry as Partial<DemoTokenEntry> | null;
    if (typeof e?.id === "number" && typeof e.token === "string") result[username] = { id: e.id, token: e.token };
  }
  return result;
}

/** Keeps `database`'s tokens (other databases' entries stay). */
export function writeDemoTokens(path: string, database: string, tokens: Record<string, DemoTokenEntry>): void {
  writeDemoSection(path, database, { tokens }, NOTE);
}
