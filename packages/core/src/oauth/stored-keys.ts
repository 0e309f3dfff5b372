/**
 * The start-up step for the provider's stored keys (run by `fk.migrate()`): every stored key must
 * open with the configured key-encryption keys — a wrong or missing one fails start-up with a
 * clear message instead of a 500 on the first authorization — and keys stored in plain text (while
 * a key-encryption key is configured) or sealed under a retired one are re-sealed under the current
 * one, so after this a dump of the table holds no private key material.
 */
import { err, ok, type Result } from "neverthrow";
import type { OAuthKeyKind, OAuthKeyRepository } from "../ports/oauth-store.js";
import { describeKeyVaultError, type KeyVault } from "./key-envelope.js";

const KINDS: readonly OAuthKeyKind[] = ["id_token_rsa", "consent_hmac"];

/** What start-up did: the kinds it re-sealed under the current key-encryption key. */
export interface StoredKeysReport {
  resealed: OAuthKeyKind[];
}

/**
 * Checks and re-seals the stored keys. Several processes may start at once: the re-seal is a
 * compare-and-swap (`replace`), and a loser reads the winner's value and checks that instead.
 */
export async function prepareStoredKeys(keys: OAuthKeyRepository, vault: KeyVault): Promise<Result<StoredKeysReport, string>> {
  const resealed: OAuthKeyKind[] = [];
  for (const kind of KINDS) {
    for (let attempt = 0; attempt < 3; attempt++) {
      const stored = await keys.get(kind);
      if (stored === null) break;
      const opened = vault.open(kind, stored.value);
      if (opened.isErr()) return err(describeKeyVaultError(opened.error, kind));
      if (!vault.needsReseal(stored.value)) break;
      if (await keys.replace(kind, stored.value, vault.seal(kind, opened.value))) {
        resealed.push(kind);
        break;
      }
    }
  }
  return ok({ resealed });
}
