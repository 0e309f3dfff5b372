/**
 * Who authored an imported record (issue 10 §2): the forge user's public e-mail, when it is a
 * confirmed e-mail of a forgekit user, maps to that user; otherwise the importer becomes the author
 * and the text names the original author, as the reference does ("*Created by: login*"). The forge's
 * lists carry no e-mail: `learn` asks the forge once per login (`GET /users/:login`) before a page
 * is written, so no request runs inside the page's transaction. Assignees map the same way
 * (`userOf`); unmapped ones are dropped.
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

/** The public e-mail of a login, as the external service tells it (null: none shown, or no such account). */
export type EmailLookup = (login: string) => Promise<string | null>;

/** Maps authors for one import run (`importerId`: the user who started the import). */
export class AuthorMap {
  readonly #cache = new Map<string, number | null>();
  readonly #emails = new Map<string, string | null>();
  #lookupEmail: EmailLookup | undefined;

  constructor(readonly importerId: number) {}

  /** Where `learn` asks for the e-mails the records do not carry (the forge's `GET /users/:login`). */
  lookUpEmailsWith(lookup: EmailLookup): void {
    this.#lookupEmail = lookup;
  }

  /** Asks for the e-mail of each login not known yet (outside of any transaction); a no-op without a lookup. */
  async learn(authors: Iterable<ExternalAuthor | null>): Promise<void> {
    const lookup = this.#lookupEmail;
    if (lookup === undefined) return;
    for (const author of authors) {
      if (author === null || author.email !== null || this.#emails.has(author.login) || this.#cache.has(author.login)) continue;
      const email = await lookup(author.login);
      if (this.#emails.size >= CACHE_MAX) this.#emails.clear();
      this.#emails.set(author.login, email);
    }
  }

  /** Maps `author` (null: a deleted account, "ghost" on the forge). */
  async resolve(tx: Pick<TransactionStore, "emails" | "users">, author: ExternalAuthor | null): Promise<MappedAuthor> {
    const userId = await this.userOf(tx, author);
    return userId === null ? { authorId: this.importerId, prefix: `*Created by: ${author?.login ?? "ghost"}*\n\n` } : { authorId: userId, prefix: "" };
  }

  /** The forgekit user `author` maps to, or null (assignees that map to no one are dropped). */
  async userOf(tx: Pick<TransactionStore, "emails" | "users">, author: ExternalAuthor | null): Promise<number | null> {
    const login = author?.login ?? "ghost";
    let userId = this.#cache.get(login);
    if (userId === undefined) {
      const known = author === null ? null : { login: author.login, email: author.email ?? this.#emails.get(author.login) ?? null };
      userId = await this.#lookup(tx, known);
      if (this.#cache.size >= CACHE_MAX) this.#cache.clear();
      this.#cache.set(login, userId);
    }
    return userId;
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
