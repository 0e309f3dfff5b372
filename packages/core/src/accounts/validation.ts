/** Format rules for the accounts aggregates (reference: `Gitlab::PathRegex`, Rails validators). */
import { BLANK, INVALID, type Messages, tooLong } from "./service-kit.js";
import type { AccessLevel as AccessLevelType, Visibility } from "./types.js";
import { AccessLevel } from "./types.js";

/** Reference wording of the namespace/project path format error. */
export const PATH_FORMAT_MESSAGE = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'";

const PATH_PATTERN = /^[A-Za-z0-9_.][A-Za-z0-9_.-]*$/;
const MAX_LENGTH = 255;

/** Checks a username, namespace path or project path. */
export function checkPath(messages: Messages, field: string, value: string | undefined): void {
  if (value === undefined || value.trim() === "") {
    messages.add(field, BLANK);
    return;
  }
  if (value.length > MAX_LENGTH) messages.add(field, tooLong(MAX_LENGTH));
  const lower = value.toLowerCase();
  if (!PATH_PATTERN.test(value) || lower.endsWith(".git") || lower.endsWith(".atom")) messages.add(field, PATH_FORMAT_MESSAGE);
}

/** Checks a display name: present, at most 255 characters. */
export function checkName(messages: Messages, field: string, value: string | undefined): void {
  if (value === undefined || value.trim() === "") messages.add(field, BLANK);
  else if (value.length > MAX_LENGTH) messages.add(field, tooLong(MAX_LENGTH));
}

const EMAIL_PATTERN = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/** Checks an e-mail address's shape. */
export function checkEmail(messages: Messages, field: string, value: string | undefined): void {
  if (value === undefined || value.trim() === "") messages.add(field, BLANK);
  else if (!EMAIL_PATTERN.test(value) || value.length > MAX_LENGTH) messages.add(field, INVALID);
}

/** Visibility levels, most restricted first. */
export const VISIBILITY_ORDER: readonly Visibility[] = ["private", "internal", "public"];

/** Whether `child` is no more open than `parent`. */
export function visibilityWithin(child: Visibility, parent: Visibility): boolean {
  return VISIBILITY_ORDER.indexOf(child) <= VISIBILITY_ORDER.indexOf(parent);
}

/** The member access levels a membership may have (Guest 10 … Owner 50). */
export const MEMBER_LEVELS: readonly AccessLevelType[] = [
  AccessLevel.Guest,
  AccessLevel.Reporter,
  AccessLevel.Developer,
  AccessLevel.Maintainer,
  AccessLevel.Owner,
];

/** Narrows a number to a member access level. */
export function isMemberLevel(value: number): value is AccessLevelType {
  return (MEMBER_LEVELS as readonly number[]).includes(value);
}

/** Derives a path from a name the way the reference does for projects without an explicit path. */
export function pathFromName(name: string): string {
  return name
    .trim()
    .replace(/[^A-Za-z0-9_.-]+/g, "-")
    .replace(/^-+/, "")
    .replace(/-+$/, "")
    .toLowerCase();
}
