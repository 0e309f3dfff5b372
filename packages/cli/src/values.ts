/** Parsers for option values; each throws a UsageError naming the option on malformed input. */
import { UsageError } from "./usage-error.js";

/** A positive integer (ids, page numbers). */
export function positiveInt(option: string, value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`${option} must be a positive integer, got "${value}"`);
  }
  return Number(value);
}

/** One of `allowed`, case-insensitively; returns the canonical spelling. */
export function oneOf<const T extends string>(option: string, value: string, allowed: readonly T[]): T {
  const match = allowed.find((a) => a === value.toLowerCase());
  if (match === undefined) throw new UsageError(`${option} must be one of ${allowed.join(", ")}, got "${value}"`);
  return match;
}

/** `true`/`false` (also yes/no, 1/0). */
export function booleanValue(option: string, value: string): boolean {
  const v = value.toLowerCase();
  if (["true", "yes", "1"].includes(v)) return true;
  if (["false", "no", "0"].includes(v)) return false;
  throw new UsageError(`${option} must be true or false, got "${value}"`);
}

/** A calendar date `YYYY-MM-DD` (UTC midnight), validated (no 2024-02-30). */
export function isoDate(option: string, value: string): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const date = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : null;
  if (date === null || date.toISOString().slice(0, 10) !== value) {
    throw new UsageError(`${option} must be a date YYYY-MM-DD, got "${value}"`);
  }
  return date;
}

/** A comma-separated list with no empty items (`api,read_user`). */
export function commaList(option: string, value: string): string[] {
  const items = value.split(",").map((s) => s.trim());
  if (items.some((s) => s === "")) throw new UsageError(`${option} must be a comma-separated list, got "${value}"`);
  return items;
}

/** A comma-separated list of scopes, each one of `allowed`; a UsageError names the first unknown one and lists `allowed`. */
export function scopeList(option: string, value: string, allowed: readonly string[]): string[] {
  const scopes = commaList(option, value);
  const unknown = scopes.find((scope) => !allowed.includes(scope));
  if (unknown !== undefined) throw new UsageError(`${option}: unknown scope "${unknown}"; the valid scopes are ${allowed.join(", ")}`);
  return scopes;
}

/** Access level names (reference `Gitlab::Access`) and their numbers. */
export const ACCESS_LEVELS = { guest: 10, reporter: 20, developer: 30, maintainer: 40, owner: 50 } as const;
export type AccessLevelNumber = (typeof ACCESS_LEVELS)[keyof typeof ACCESS_LEVELS];

/** An access level by name (`developer`) or number (`30`). */
export function accessLevel(option: string, value: string): AccessLevelNumber {
  const v = value.toLowerCase();
  const byName = (ACCESS_LEVELS as Record<string, AccessLevelNumber>)[v];
  if (byName !== undefined) return byName;
  const byNumber = Object.values(ACCESS_LEVELS).find((n) => String(n) === v);
  if (byNumber !== undefined) return byNumber;
  throw new UsageError(`${option} must be one of ${Object.entries(ACCESS_LEVELS).map(([k, n]) => `${k} (${n})`).join(", ")}, got "${value}"`);
}

/** The name of an access level number (`30` → `developer`). */
export function accessLevelName(level: number): string {
  return Object.entries(ACCESS_LEVELS).find(([, n]) => n === level)?.[0] ?? String(level);
}
