/**
 * Who authored an imported record (issue 10 §2): the forge user's public e-mail, when it is a
 * confirmed e-mail of a forgekit user, maps to that user; otherwise the importer becomes the author
 * and the text names the original author, as the reference does ("*Created by: login*").
 */
import type { TransactionStore } from "../ports/store.js";

/** An author as the external services describe one. */
export interface ExternalAuthor {
  login: string;
  email: string | null;
}

/** The author to store and the text to put before the body. */
export interface MappedAuthor {
  authorId: number;
  /** Empty when the author was found; else `*Created by: login*` and a blank line. */
  prefix: string;
}

/** Cached answers per login: a repository has few distinct authors, and each is asked once. */
const CACHE_MAX = 10_000;

/** Maps authors for one import run (`importerId`: the user who started the import). */
export class AuthorMap {
  readonly #cache = new Map<string, number | null>();

  constructor(readonly importerId: number) {}

  /** Maps `author` (null: a deleted account, "ghost" on the forge). */
  async resolve(tx: Pick<TransactionStore, "emails" | "users">, author: ExternalAuthor | null): Promise<MappedAuthor> {
    const login = author?.login ?? "ghost";
    let userId = this.#cache.get(login);
    if (userId === undefined) {
      userId = await this.#lookup(tx, author);
      if (this.#cache.size >= CACHE_MAX) this.#cache.clear();
      this.#cache.set(login, userId);
    }
    return userId === null ? { authorId: this.importerId, prefix: `*Created by: ${login}*\n\n` } : { authorId: userId, prefix: "" };
  }

  async #lookup(tx: Pick<TransactionStore, "emails" | "users">, author: ExternalAuthor | null): Promise<number | null> {
    const email = author?.email?.trim();
    if (email === undefined || email === "") return null;
    const found = await tx.emails.findByEmail(email);
    if (found === null || found.confirmedAt === null) return null;
    const user = await tx.users.findById(found.userId);
    // Blocked users and bots do not author imported records.
    return user !== null && user.state === "active" && user.bot === null ? user.id : null;
  }
}
