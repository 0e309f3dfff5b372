/**
 * The names the documentation's TypeScript fragments use without defining them: the host's own
 * objects (`myApp`, `mySessions`, `mailer`, …) and values a guide has introduced before (`fk`,
 * `baseUrl`, `store`, …). tools/doc-code-blocks.ts typechecks every `ts` block with these in scope;
 * a block that defines a name itself (an import, a `const`) shadows the one here.
 */
type Forgekit = import("@forgekit/core").Forgekit;
type ForgekitOptions = import("@forgekit/core").ForgekitOptions;

declare const createForgekit: typeof import("@forgekit/core").createForgekit;
declare const fk: Forgekit;
declare const baseUrl: string;
declare const store: import("@forgekit/core").Store;
declare const repositoryStorages: ForgekitOptions["repositoryStorages"];

/** The host application of the examples: its users, sessions and mailer. */
declare const myApp: {
  userIdForSession(sid: string): Promise<number | null>;
  csrfTokenFor(sid: string): string | undefined;
};
declare const mySessions: { userIdFor(sid: string): Promise<string | null>; csrfFor(sid: string): string | undefined };
declare const myUser: { id: string; login: string; name: string; email: string; isAdmin: boolean; blocked: boolean };
declare const mailer: { send(message: { to: string; subject: string; text: string }): Promise<void> };

/** Values of the job, event and credential fragments. */
declare const listRepos: (payload: unknown) => Promise<string[]>;
declare const importRepo: (repo: string) => Promise<void>;
declare const runAfter: Date;
declare const id: number;
declare const kind: string;
declare const state: "queued" | "running" | "succeeded" | "failed" | "cancelled";
declare const page: number;
declare const perPage: number;
declare const author: { id: number };
declare const assigneeIds: number[];
declare const mentionedUserIds: number[];
declare const projectId: number;
declare const authorId: number;
declare const actorId: number;
declare const iid: number;
declare const title: string;
declare const fileName: string;
declare const commitFrom: string;
declare const commitTo: string;
declare const commitTitle: string;
declare const username: string;
declare const password: string;
