/** Small runtime ports: time, randomness, logging, password hashing (DESIGN §5). */

/** Time comes from here, so tests assert exact expiry edges. */
export interface Clock {
  now(): Date;
}

/** Shaped like oslo's `RandomReader`: fills `bytes` with cryptographically secure random bytes. */
export interface Random {
  read(bytes: Uint8Array): void;
}

export type LogLevel = "debug" | "info" | "warn" | "error";

/** The host's logger. Fields never carry secrets (tokens, codes, passwords, client secrets). */
export interface Logger {
  log(level: LogLevel, event: string, fields?: Record<string, unknown>): void;
}

/** Slow password hashing (default: scrypt from node:crypto). */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
}
