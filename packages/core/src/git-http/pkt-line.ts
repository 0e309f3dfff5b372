/**
 * pkt-lines (git's `protocol-common`): a 4-digit hex length (itself included) and a payload;
 * `0000` is a flush. Used for the `# service=…` preamble of info/refs and to read the ref update
 * commands at the start of a receive-pack request, which pass through untouched.
 */
import { Transform, type TransformCallback } from "node:stream";

/** One pkt-line holding `text`. */
export function pktLine(text: string): Buffer {
  const payload = Buffer.from(text, "utf8");
  return Buffer.concat([Buffer.from((payload.length + 4).toString(16).padStart(4, "0"), "ascii"), payload]);
}

/** The flush packet. */
export const FLUSH = Buffer.from("0000", "ascii");

/** One ref update a push asked for. */
export interface RefCommand {
  oldId: string;
  newId: string;
  ref: string;
}

/** Most bytes of commands read before giving up on them (a push of very many refs): the stream still passes. */
const MAX_COMMAND_BYTES = 8 * 1024 * 1024;

/**
 * A pass-through that reads the command list of a receive-pack request (`<old> <new> <ref>` lines,
 * the first with `\0<capabilities>`, up to the first flush). `commands()` is the list, or `null`
 * when it could not be read whole (a signed push, a list past the limit, a malformed stream).
 */
export class ReceiveCommandsTap extends Transform {
  private buffer: Buffer = Buffer.alloc(0);
  private done = false;
  private result: RefCommand[] | null = [];

  /** The commands, or null when they could not be read. */
  commands(): RefCommand[] | null {
    return this.done ? this.result : null;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (!this.done) this.read_(chunk);
    callback(null, chunk);
  }

  private read_(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    while (!this.done) {
      if (this.buffer.length < 4) break;
      const length = Number.parseInt(this.buffer.subarray(0, 4).toString("ascii"), 16);
      if (!Number.isInteger(length) || (length > 0 && length < 4)) return this.giveUp();
      if (length === 0) {
        this.done = true;
        break;
      }
      if (this.buffer.length < length) {
        if (this.buffer.length > MAX_COMMAND_BYTES) this.giveUp();
        break;
      }
      const line = this.buffer.subarray(4, length).toString("utf8");
      this.buffer = this.buffer.subarray(length);
      this.line(line);
    }
    if (this.done) this.buffer = Buffer.alloc(0);
  }

  private line(raw: string): void {
    const text = raw.split("\0")[0]?.replace(/\n$/, "") ?? "";
    if (text.startsWith("shallow ")) return;
    const m = /^([0-9a-f]{40}|[0-9a-f]{64}) ([0-9a-f]{40}|[0-9a-f]{64}) (\S+)$/.exec(text);
    // A push certificate (`push-cert`) or anything else: the list cannot be trusted whole.
    if (m === null) return this.giveUp();
    this.result?.push({ oldId: m[1] as string, newId: m[2] as string, ref: m[3] as string });
  }

  private giveUp(): void {
    this.done = true;
    this.result = null;
    this.buffer = Buffer.alloc(0);
  }
}
