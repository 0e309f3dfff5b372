/**
 * Plumbing shared by the accounts services: turning store promises into ResultAsync, running
 * multi-step writes in one transaction that rolls back on a domain error, and collecting
 * validation messages in the reference's shape (`{"field": ["message"]}`).
 */
import { err, ok, ResultAsync, type Result } from "neverthrow";
import { errors, type ForgekitError } from "../errors.js";
import type { Store, TransactionStore } from "../ports/store.js";

/** Wraps a store call: a rejected promise is an infrastructure failure (`internal`), never a caller mistake. */
export function fromStore<T>(promise: Promise<T>): ResultAsync<T, ForgekitError> {
  return ResultAsync.fromPromise(promise, (cause) => errors.internal(cause));
}

/** Runs an async body that returns a Result; a throw becomes `internal`. */
export function attempt<T>(body: () => Promise<Result<T, ForgekitError>>): ResultAsync<T, ForgekitError> {
  return ResultAsync.fromPromise(body(), (cause) => errors.internal(cause)).andThen((r) => r);
}

/** Carries a domain error out of `store.transaction` so the store rolls back. */
class TransactionAborted extends Error {
  constructor(readonly error: ForgekitError) {
    super(`transaction aborted: ${error.code}`);
  }
}

/**
 * Runs `body` in one store transaction. An `Err` result rolls the transaction back (nothing it wrote
 * stays) and is returned as is; a throw rolls back and becomes `internal`.
 */
export function inTransaction<T>(store: Store, body: (tx: TransactionStore) => Promise<Result<T, ForgekitError>>): ResultAsync<T, ForgekitError> {
  return ResultAsync.fromPromise(
    store.transaction(async (tx) => {
      const result = await body(tx);
      if (result.isErr()) throw new TransactionAborted(result.error);
      return result.value;
    }),
    (cause) => (cause instanceof TransactionAborted ? cause.error : errors.internal(cause)),
  );
}

/** Collects `field → messages` and yields a `validation` error when any were added. */
export class Messages {
  readonly #messages: Record<string, string[]> = {};

  add(field: string, message: string): this {
    (this.#messages[field] ??= []).push(message);
    return this;
  }

  /** Whether a message was added for `field`. */
  has(field: string): boolean {
    return this.#messages[field] !== undefined;
  }

  get empty(): boolean {
    return Object.keys(this.#messages).length === 0;
  }

  /** `ok(value)` when nothing was added, else the validation error. */
  result<T>(value: T): Result<T, ForgekitError> {
    return this.empty ? ok(value) : err(errors.validation({ ...this.#messages }));
  }
}

/** Reference (Rails) message for a blank attribute. */
export const BLANK = "can't be blank";
/** Reference message for a unique attribute already in use. */
export const TAKEN = "has already been taken";
/** Reference message for a malformed attribute. */
export const INVALID = "is invalid";

/** Rails' length message. */
export const tooLong = (max: number): string => `is too long (maximum is ${max} characters)`;
/** Rails' length message. */
export const tooShort = (min: number): string => `is too short (minimum is ${min} characters)`;
