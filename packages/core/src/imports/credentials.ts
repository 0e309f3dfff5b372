/**
 * The credentials an import job needs (the forge token, the repository server's user name and
 * token) are kept on the import row while it runs, because a job resumed by another worker after a
 * crash must read them again (issue 10 §2). They never go into a job payload (`forgekit jobs show`
 * prints payloads), a git remote or a log. With `oauth.keyEncryption` configured they are sealed
 * with AES-256-GCM under the instance's key-encryption key (the key that protects the OAuth keys);
 * without it they are stored as JSON text, like the OAuth keys are then.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { ForgekitConfig } from "../config.js";
import { decodeKeyEncryptionKey } from "../oauth/key-envelope.js";

/** What an import authenticates with. */
export interface ImportCredentials {
  token: string;
  /** The repository server's user name (`extserver_username`). */
  username?: string;
}

const PREFIX = "fkimp1";
const AAD = Buffer.from("forgekit|import-credentials");

/** Seals and opens import credentials with the instance's key-encryption keys. */
export interface CredentialsBox {
  seal(credentials: ImportCredentials): string;
  /** The credentials, or null when the stored text cannot be opened (key removed, data altered). */
  open(stored: string): ImportCredentials | null;
}

const parse = (text: string): ImportCredentials | null => {
  try {
    const value = JSON.parse(text) as { token?: unknown; username?: unknown };
    if (typeof value.token !== "string") return null;
    return typeof value.username === "string" ? { token: value.token, username: value.username } : { token: value.token };
  } catch {
    return null;
  }
};

/** The box of an instance (its `oauth.keyEncryption` keys, current first). */
export function credentialsBox(config: Pick<ForgekitConfig, "oauth">): CredentialsBox {
  const options = config.oauth.keyEncryption;
  const keys = new Map<string, Buffer>();
  for (const k of options === undefined ? [] : [options, ...(options.previousKeys ?? [])]) {
    const bytes = decodeKeyEncryptionKey(k.key);
    if (bytes !== null && !keys.has(k.keyId)) keys.set(k.keyId, bytes);
  }
  const current = options?.keyId;
  return {
    seal(credentials) {
      const text = JSON.stringify(credentials);
      const key = current === undefined ? undefined : keys.get(current);
      if (current === undefined || key === undefined) return text;
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      cipher.setAAD(AAD);
      const body = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
      return `${PREFIX}.${current}.${Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64url")}`;
    },
    open(stored) {
      if (!stored.startsWith(`${PREFIX}.`)) return parse(stored);
      const [, keyId, sealed] = stored.split(".");
      const key = keyId === undefined ? undefined : keys.get(keyId);
      if (key === undefined || sealed === undefined) return null;
      const bytes = Buffer.from(sealed, "base64url");
      if (bytes.length < 28) return null;
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, 12));
        decipher.setAAD(AAD);
        decipher.setAuthTag(bytes.subarray(bytes.length - 16));
        return parse(Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]).toString("utf8"));
      } catch {
        return null;
      }
    },
  };
}
