/**
 * Project and personal snippets (host API: `fk.snippets`); creating one records `created` and
 * gives the snippet a repository holding its file (on `defaultRepositoryStorage`).
 */
import { err, type ResultAsync } from "neverthrow";
import { attempt, BLANK, INVALID, Messages } from "../accounts/service-kit.js";
import type { Visibility } from "../accounts/types.js";
import { visibilityWithin } from "../accounts/validation.js";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import { insertEvent } from "../events/record.js";
import { isRepositoryFilePath } from "../repositories/names.js";
import { inTransactionWithRepository } from "../repositories/provision.js";
import { snippetEvent } from "./event-inputs.js";
import { checkTitle, foundOr404, isRecordId, projectOr404, userOr404 } from "./kit.js";
import type { Snippet } from "./types.js";

/** Input of {@link SnippetsService.create}. */
export interface CreateSnippetInput {
  /** The project of a project snippet; null or absent for a personal snippet. */
  projectId?: number | null;
  authorId: number;
  title: string;
  fileName: string;
  content?: string;
  /** Default `private`; a project snippet is never more open than its project. */
  visibility?: Visibility;
}

/** Snippets service. Callers are trusted: no permission checks. */
export interface SnippetsService {
  /**
   * Creates the snippet and records `created` (target `Snippet`). Events of personal snippets have no
   * project, so no feed lists them (feeds are project events: spec `project_id` is an integer).
   */
  create(input: CreateSnippetInput): ResultAsync<Snippet, ForgekitError>;
  /** `404 Snippet Not Found` when unknown. */
  find(id: number): ResultAsync<Snippet, ForgekitError>;
}

const VISIBILITIES: readonly Visibility[] = ["private", "internal", "public"];

/** The commit e-mail of a user: a no-reply address on the instance's host (user e-mails stay private). */
const noreplyEmail = (username: string, baseUrl: string) => `${username}@users.noreply.${new URL(baseUrl).hostname}`;

/** Builds the snippets service. */
export function snippetsService(config: ForgekitConfig): SnippetsService {
  const { store, clock } = config;
  return {
    create(input) {
      const messages = new Messages();
      checkTitle(messages, "title", input.title);
      if (typeof input.fileName !== "string" || input.fileName.trim() === "") messages.add("file_name", BLANK);
      // The file is committed to the snippet's repository under this name: it must be a relative path git accepts.
      else if (!isRepositoryFilePath(input.fileName)) messages.add("file_name", INVALID);
      const visibility = input.visibility ?? "private";
      if (!VISIBILITIES.includes(visibility)) messages.add("visibility", "is not included in the list");
      return messages.result(input).asyncAndThen(() =>
        inTransactionWithRepository(config, async (tx) => {
          const now = clock.now();
          const projectId = input.projectId ?? null;
          if (projectId !== null) {
            const project = await projectOr404(tx, projectId);
            if (project.isErr()) return err(project.error);
            if (!visibilityWithin(visibility, project.value.visibility)) {
              return err(errors.validation({ visibility_level: [`${visibility} is not allowed in a ${project.value.visibility} project.`] }));
            }
          }
          const author = await userOr404(tx, input.authorId);
          if (author.isErr()) return err(author.error);
          const snippet = await tx.activity.snippets.create(
            { projectId, authorId: input.authorId, title: input.title, fileName: input.fileName, content: input.content ?? "", visibility },
            now,
          );
          const event = await insertEvent(tx, snippetEvent(snippet, "created", input.authorId), now);
          // The snippet's repository holds its file, committed by its author (reference: "Initial commit").
          const commit = {
            files: [{ path: snippet.fileName, content: snippet.content }],
            message: "Initial commit",
            author: { name: author.value.name, email: noreplyEmail(author.value.username, config.baseUrl) },
            date: now,
          };
          return event.map(() => ({ value: snippet, repository: { storage: config.defaultRepositoryStorage, ref: { kind: "snippet" as const, id: snippet.id }, options: { commit } } }));
        }),
      );
    },
    find: (id) => attempt(async () => foundOr404(isRecordId(id) ? await store.activity.snippets.findById(id) : null, "Snippet")),
  };
}
