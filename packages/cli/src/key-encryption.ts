/**
 * The key-encryption key (`oauth.keyEncryption`, core's key-envelope.ts) of the CLI and the demo:
 * it encrypts the stored id_token signing key and consent key, so a dump of the database holds no
 * key material. Read from, in this order:
 *
 * 1. `FORGEKIT_KEY_ENCRYPTION_KEY`: `<keyId>:<key>`, then optionally `,<keyId>:<key>` previous keys;
 * 2. `FORGEKIT_KEY_ENCRYPTION_KEY_FILE`: a file holding the same, one `<keyId>:<key>` a line (`#` comments);
 * 3. the database's own key file ({@link keyEncryptionKeyFile}), when it exists.
 *
 * The first key encrypts; the others are `previousKeys` that still decrypt, and `fk.migrate()`
 * re-encrypts what they sealed under the first (rotation). A key is 32 bytes as base64 or hex
 * (`openssl rand -base64 32`). The demo host writes the database's key file (mode 0600) on its first
 * start when none of the three gives a key.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { decodeKeyEncryptionKey, KEY_ID_PATTERN, type OAuthOptions } from "@forgekit/core";
import { describeTarget, serverDataFolder, type DatabaseTarget } from "./database.js";
import { UsageError } from "./usage-error.js";

/** `oauth.keyEncryption` of createForgekit: the current key and the previous ones. */
export type KeyEncryptionOptions = NonNullable<OAuthOptions["keyEncryption"]>;

/** The environment variable that holds the key(s) itself. */
export const KEY_ENCRYPTION_KEY_VARIABLE = "FORGEKIT_KEY_ENCRYPTION_KEY";
/** The environment variable that names a file holding the key(s). */
export const KEY_ENCRYPTION_KEY_FILE_VARIABLE = "FORGEKIT_KEY_ENCRYPTION_KEY_FILE";

/**
 * Parses `<keyId>:<key>` entries (separated by commas or new lines; blank and `#` lines skipped);
 * throws a UsageError naming `source` and the entry for a malformed one (never echoing a key).
 */
export function parseKeyEncryption(text: string, source: string): KeyEncryptionOptions {
  const entries = text
    .split("\n")
    .filter((line) => !line.trim().startsWith("#"))
    .flatMap((line) => line.split(","))
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  const keys = entries.map((entry, index) => {
    const colon = entry.indexOf(":");
    const keyId = colon === -1 ? "" : entry.slice(0, colon);
    const key = entry.slice(colon + 1);
    const which = `${source}: entry ${index + 1}`;
    if (!KEY_ID_PATTERN.test(keyId)) throw new UsageError(`${which} must be <keyId>:<key>, the key id 1-64 letters, digits, _ or -`);
    if (decodeKeyEncryptionKey(key) === null) throw new UsageError(`${which} (key id "${keyId}"): the key must be 32 bytes as base64 or 64 hex digits (openssl rand -base64 32)`);
    return { keyId, key };
  });
  const [current, ...previousKeys] = keys;
  if (current === undefined) throw new UsageError(`${source} holds no <keyId>:<key>`);
  if (new Set(keys.map((k) => k.keyId)).size !== keys.length) throw new UsageError(`${source}: key ids must be distinct`);
  return { ...current, ...(previousKeys.length === 0 ? {} : { previousKeys }) };
}

/** The database's own key file: next to an SQLite file (`<file>.key-encryption-key`), else in its folder under ./data; none for `:memory:`. */
export function keyEncryptionKeyFile(target: DatabaseTarget, cwd: string): string | undefined {
  if (target.kind !== "sqlite") return join(serverDataFolder(target, cwd), "key-encryption-key");
  return target.path === ":memory:" ? undefined : `${target.path}.key-encryption-key`;
}

function readKeyFile(path: string, source: string): KeyEncryptionOptions {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new UsageError(`${source}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  return parseKeyEncryption(text, `${source} ${path}`);
}

/** The key-encryption key the environment or the database's key file gives; undefined when none does (keys then stay plain text). */
export function configuredKeyEncryption(env: Readonly<Record<string, string | undefined>>, target: DatabaseTarget, cwd: string): KeyEncryptionOptions | undefined {
  const variable = env[KEY_ENCRYPTION_KEY_VARIABLE];
  const file = env[KEY_ENCRYPTION_KEY_FILE_VARIABLE];
  if (variable !== undefined && variable !== "" && file !== undefined && file !== "") {
    throw new UsageError(`set ${KEY_ENCRYPTION_KEY_VARIABLE} or ${KEY_ENCRYPTION_KEY_FILE_VARIABLE}, not both`);
  }
  if (variable !== undefined && variable !== "") return parseKeyEncryption(variable, KEY_ENCRYPTION_KEY_VARIABLE);
  if (file !== undefined && file !== "") return readKeyFile(resolve(cwd, file), KEY_ENCRYPTION_KEY_FILE_VARIABLE);
  const own = keyEncryptionKeyFile(target, cwd);
  return own !== undefined && existsSync(own) ? readKeyFile(own, "the key-encryption key file") : undefined;
}

/** The demo's key-encryption key, and the key file it wrote for it (when it made a new one) with the first folder it had to create. */
export interface DemoKeyEncryption {
  keyEncryption: KeyEncryptionOptions | undefined;
  written?: { file: string; createdFolder: string | undefined };
}

/**
 * The demo's key-encryption key: the configured one, else a new random key written to the
 * database's key file (mode 0600) on the first start. None for `:memory:` (nothing outlives the run).
 */
export function demoKeyEncryption(env: Readonly<Record<string, string | undefined>>, target: DatabaseTarget, cwd: string, now = new Date()): DemoKeyEncryption {
  const configured = configuredKeyEncryption(env, target, cwd);
  const path = keyEncryptionKeyFile(target, cwd);
  if (configured !== undefined || path === undefined) return { keyEncryption: configured };
  const generated = { keyId: `demo-${now.toISOString().slice(0, 10)}`, key: randomBytes(32).toString("base64") };
  const createdFolder = mkdirSync(dirname(path), { recursive: true });
  const note = [
    `# forgekit key-encryption key of ${describeTarget(target)}: it encrypts the stored id_token and consent keys.`,
    "# One <keyId>:<key> a line: the first encrypts, the ones after it still decrypt (rotation; see docs/guide/oauth.md).",
    "# Keep it secret and keep it: without it the stored keys cannot be read.",
  ];
  // "wx": two demos starting at once never overwrite each other's key; the loser reads the winner's.
  try {
    writeFileSync(path, `${[...note, `${generated.keyId}:${generated.key}`].join("\n")}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return { keyEncryption: readKeyFile(path, "the key-encryption key file") };
    throw error;
  }
  return { keyEncryption: generated, written: { file: path, createdFolder } };
}

/**
 * Removes a key file {@link demoKeyEncryption} has just written when the database turned out to be
 * unreachable (nothing was encrypted with it), and the folders made for it, when they are left
 * empty: a mistyped DATABASE_URL leaves nothing behind.
 */
export function forgetDemoKeyFile(written: NonNullable<DemoKeyEncryption["written"]>): void {
  rmSync(written.file, { force: true });
  if (written.createdFolder === undefined) return;
  for (let folder = dirname(written.file); folder.startsWith(written.createdFolder); folder = dirname(folder)) {
    try {
      rmdirSync(folder);
    } catch {
      return; // Not empty: something else lives there now.
    }
  }
}
