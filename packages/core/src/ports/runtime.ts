/** Small runtime ports: time, randomness, logging, password hashing (DESIGN §5). */

/** Time comes from here, so tests assert exact expiry edges. */
export interface Clock {
  /** The current time. */
  now(): Date;
}

/** Shaped like oslo's `RandomReader`: fills `bytes` with cryptographically secure random bytes. */
export interface Random {
  /** Fills `bytes` with cryptographically secure random bytes. */
  read(bytes: Uint8Array): void;
}

/** The severity of a log record. */
export type LogLevel = "debug" | "info" | "warn" | "error";

/** The host's logger. Fields never carry secrets (tokens, codes, passwords, client secrets). */
export interface Logger {
  /**
   * Records `event` (a dotted name such as `jobs.poll_failed`) at `level`, with optional structured
   * fields.
   */
  log(level: LogLevel, event: string, fields?: Record<string, unknown>): void;
}

/** Slow password hashing (default: scrypt from node:crypto). */
export interface PasswordHasher {
  /** Hashes `password` into the string a user record keeps (`passwordHash`). */
  hash(password: string): Promise<string>;
  /** Whether `password` matches a `hash` this hasher produced. */
  verify(hash: string, password: string): Promise<boolean>;
}
