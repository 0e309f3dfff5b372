/**
 * Progress of long-running CLI work (storage moves, imports, event pruning): one bar format, and one
 * way to show a changing status line — redrawn in place on a terminal, printed as plain lines
 * otherwise (at most one per `intervalMs`, plus the last), JSON lines on stderr with `--json`.
 */
import type { CliIo } from "./io.js";

/** `[#####.....]  50%` of `width` characters for a fraction done (clamped to 0…1). */
export function progressBar(fraction: number, width = 30): string {
  const f = Number.isFinite(fraction) ? Math.min(1, Math.max(0, fraction)) : 1;
  const filled = Math.floor(f * width);
  return `[${"#".repeat(filled)}${".".repeat(width - filled)}] ${String(Math.floor(f * 100)).padStart(3)}%`;
}

/** The fraction `done` of `total` (a total of 0, or none, counts as complete only when done). */
export const fractionOf = (done: number, total: number | null): number => (total === null ? 0 : total <= 0 ? 1 : done / total);

export interface StatusLine {
  /** Shows `text` (with a bar for `fraction`, on a terminal); `fields` go to the JSON line. */
  update(text: string, fraction?: number, fields?: Record<string, unknown>): void;
  /** Ends the line (a terminal gets its newline; plain output gets the last update if it was held back). */
  end(): void;
}

/** A status line on `io`: a redrawn bar on a TTY, throttled plain lines otherwise, JSON lines on stderr with `json`. */
export function statusLine(io: CliIo | undefined, options: { json?: boolean; intervalMs?: number; now?: () => number } = {}): StatusLine {
  const tty = io?.isTTY === true && options.json !== true;
  const now = options.now ?? Date.now;
  const interval = options.intervalMs ?? 1000;
  let lastText = "";
  let lastPrinted = -Infinity;
  let held: string | undefined;
  let drawn = false;
  return {
    update(text, fraction, fields) {
      if (options.json === true) {
        if (text !== lastText) io?.stderr(`${JSON.stringify({ event: "progress", ...fields, status: text })}\n`);
        lastText = text;
        return;
      }
      if (text === lastText) return;
      lastText = text;
      if (tty) {
        io?.stdout(`\r${fraction === undefined ? "" : `${progressBar(fraction)} `}${text}\u001b[K`);
        drawn = true;
        return;
      }
      if (now() - lastPrinted >= interval) {
        io?.stdout(`${text}\n`);
        lastPrinted = now();
        held = undefined;
      } else held = text;
    },
    end() {
      if (tty && drawn) io?.stdout("\n");
      if (!tty && held !== undefined) io?.stdout(`${held}\n`);
      held = undefined;
    },
  };
}
