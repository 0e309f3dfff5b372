/**
 * The demo's local token file (demo only: it holds plaintext tokens so that re-running the seed can
 * print them again; a real instance stores only digests and shows a token once). One entry per
 * demo username: the token's id and plaintext. Written with mode 0600.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

export interface DemoTokenEntry {
  id: number;
  token: string;
}

const NOTE = "forgekit demo tokens: plaintext kept for the local demo only. Never do this for real tokens.";

/** Reads the file; a missing or unreadable file is an empty map (the seed then issues new tokens). */
export function readDemoTokens(path: string): Record<string, DemoTokenEntry> {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return {};
  }
  const tokens = (raw as { tokens?: unknown } | null)?.tokens;
  if (typeof tokens !== "object" || tokens === null) return {};
  const result: Record<string, DemoTokenEntry> = {};
  for (const [username, entry] of Object.entries(tokens as Record<string, unknown>)) {
    const e = entry as Partial<DemoTokenEntry> | null;
    if (typeof e?.id === "number" && typeof e.token === "string") result[username] = { id: e.id, token: e.token };
  }
  return result;
}

/** Writes the file (creating its directory). */
export function writeDemoTokens(path: string, tokens: Record<string, DemoTokenEntry>): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify({ note: NOTE, tokens }, null, 2)}\n`, { mode: 0o600 });
}
