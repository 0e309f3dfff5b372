/**
 * Diff positions (reference `Gitlab::Diff::Position`, `DiffNote`): what `position[…]` parameters
 * make, and whether the line they name is in the diff. A text position names a line of a file in
 * the diff from `base_sha` to `head_sha`: an added line by `new_line` alone, a removed line by
 * `old_line` alone, an unchanged (context) line by both. The reference turns that line into a
 * `line_code` (`<sha1 of the path>_<old>_<new>`); a position naming no line of the diff has none and
 * the note is refused (`line_code` "can't be blank", "must be a valid line code").
 */
import { createHash } from "node:crypto";
import type { DiffLineRangeEnd, DiffPosition } from "../activity/types.js";
import type { FileDiff } from "../repository-api/git/diffs.js";

/** `position[…]` as the route parsed it (every field optional but the three shas and the type). */
export interface PositionParams {
  base_sha: string;
  start_sha: string;
  head_sha: string;
  position_type: "text";
  new_path?: string | undefined;
  old_path?: string | undefined;
  new_line?: number | undefined;
  old_line?: number | undefined;
  line_range?: { start?: LineRangeEndParams | undefined; end?: LineRangeEndParams | undefined } | undefined;
}

/** One end of `position[line_range]` (the reference takes its numbers as strings). */
export interface LineRangeEndParams {
  line_code?: string | undefined;
  type?: string | undefined;
  old_line?: number | undefined;
  new_line?: number | undefined;
}

const rangeEnd = (e: LineRangeEndParams | undefined): DiffLineRangeEnd | null =>
  e === undefined ? null : { lineCode: e.line_code ?? null, type: e.type ?? null, oldLine: e.old_line ?? null, newLine: e.new_line ?? null };

/** The stored position of `params`. */
export function positionOf(params: PositionParams): DiffPosition {
  const range = params.line_range;
  return {
    baseSha: params.base_sha,
    startSha: params.start_sha,
    headSha: params.head_sha,
    positionType: "text",
    oldPath: params.old_path ?? null,
    newPath: params.new_path ?? null,
    oldLine: params.old_line ?? null,
    newLine: params.new_line ?? null,
    lineRange: range === undefined ? null : { start: rangeEnd(range.start), end: rangeEnd(range.end) },
  };
}

/** Reference `Position#file_path`: the new path, else the old one. */
export const filePath = (p: DiffPosition): string | null => p.newPath ?? p.oldPath;

/** Reference `Position#complete?`: a file, a line and all three shas. */
export const isComplete = (p: DiffPosition): boolean =>
  filePath(p) !== null && (p.oldLine !== null || p.newLine !== null) && p.baseSha !== null && p.startSha !== null && p.headSha !== null;

/** Reference `Gitlab::Git.diff_line_code`. */
export const lineCode = (path: string, newPos: number, oldPos: number): string => `${createHash("sha1").update(path).digest("hex")}_${oldPos}_${newPos}`;

/** One line of a parsed hunk: its numbers in the old and new file (null on the side it is absent from) and its position counters. */
interface DiffLine {
  oldLine: number | null;
  newLine: number | null;
  oldPos: number;
  newPos: number;
}

/** The lines of a patch's hunks (`@@ -a,b +c,d @@` then ` `, `-`, `+` lines; `\` markers skipped). */
export function diffLines(patch: string): DiffLine[] {
  const lines: DiffLine[] = [];
  let oldPos = 0;
  let newPos = 0;
  let inHunk = false;
  for (const text of patch.split("\n")) {
    const header = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(text);
    if (header !== null) {
      oldPos = Number(header[1]);
      newPos = Number(header[2]);
      inHunk = true;
      continue;
    }
    if (!inHunk || text === "") continue;
    const sign = text[0];
    if (sign === "+") lines.push({ oldLine: null, newLine: newPos, oldPos, newPos: newPos++ });
    else if (sign === "-") lines.push({ oldLine: oldPos, newLine: null, oldPos: oldPos++, newPos });
    else if (sign === " ") lines.push({ oldLine: oldPos, newLine: newPos, oldPos: oldPos++, newPos: newPos++ });
  }
  return lines;
}

/** The line code of the diff line `position` names in `diffs`, or null when it names none. */
export function lineCodeIn(diffs: readonly FileDiff[], position: DiffPosition): string | null {
  const path = filePath(position);
  if (path === null) return null;
  const file = diffs.find((d) => (position.newPath === null || d.newPath === position.newPath) && (position.oldPath === null || d.oldPath === position.oldPath));
  if (file === undefined) return null;
  const line = diffLines(file.diff).find((l) => l.oldLine === position.oldLine && l.newLine === position.newLine);
  return line === undefined ? null : lineCode(path, line.newPos, line.oldPos);
}

/** The reference's validation messages of a refused diff note (`bad_request!("Note #{errors.messages}")`). */
export function positionErrors(position: DiffPosition, code: string | null): string | null {
  const messages: string[] = [];
  if (code === null) messages.push(':line_code=>["can\'t be blank", "must be a valid line code"]');
  if (!isComplete(position)) messages.push(':position=>["is incomplete"]');
  return messages.length === 0 ? null : `Note {${messages.join(", ")}}`;
}
