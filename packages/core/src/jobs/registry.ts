/** Which handler runs each kind of job, with its retry settings. */
import { err, ok, type Result } from "neverthrow";
import { errors, type ForgekitError } from "../errors.js";
import { DEFAULT_BACKOFF } from "./backoff.js";
import type { BackoffOptions, JobHandler, JobKindOptions } from "./types.js";

/** A registered kind. */
export interface JobKind {
  kind: string;
  handler: JobHandler;
  maxAttempts: number;
  backoff: Required<BackoffOptions>;
}

/** Kind names: lower-case words joined by `.`, `_` or `-` (they are stored, listed and logged). */
const KIND = /^[a-z][a-z0-9]*(?:[._-][a-z0-9]+)*$/;
/** Fits the kind column (0008_jobs). */
const KIND_MAX = 100;
export const DEFAULT_MAX_ATTEMPTS = 5;

/** A registry of job kinds. */
export class JobRegistry {
  readonly #kinds = new Map<string, JobKind>();

  /** Adds a kind; a bad name or option, or a kind registered twice, is a validation error. */
  define<P>(kind: string, handler: JobHandler<P>, options: JobKindOptions = {}): Result<void, ForgekitError> {
    const messages: Record<string, string[]> = {};
    if (kind.length > KIND_MAX || !KIND.test(kind)) messages["kind"] = [`must be at most ${KIND_MAX} lower-case letters and digits in words joined by . _ or -`];
    else if (this.#kinds.has(kind)) messages["kind"] = ["is already defined"];
    const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    if (!Number.isInteger(maxAttempts) || maxAttempts < 1 || maxAttempts > 1000) messages["max_attempts"] = ["must be an integer from 1 to 1000"];
    const backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
    if (!(backoff.baseMs >= 0 && backoff.factor >= 1 && backoff.maxMs >= backoff.baseMs && Number.isFinite(backoff.maxMs))) {
      messages["backoff"] = ["needs baseMs >= 0, factor >= 1 and a finite maxMs >= baseMs"];
    }
    if (Object.keys(messages).length > 0) return err(errors.validation(messages));
    this.#kinds.set(kind, { kind, handler: handler as JobHandler, maxAttempts, backoff });
    return ok(undefined);
  }

  get(kind: string): JobKind | undefined {
    return this.#kinds.get(kind);
  }

  /** Every registered kind name. */
  kinds(): string[] {
    return [...this.#kinds.keys()];
  }
}
