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
  /** The single file of a snippet (the legacy form); ignored when `files` is given. */
  fileName?: string;
  content?: string;
  /** Every file of the snippet, committed together; the first one is the row's `fileName` / `content`. */
  files?: readonly { path: string; content: string }[];
  description?: string;
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

/** Most files one snippet holds (reference `snippet_max_files` default, as gists import). */
export const SNIPPET_FILES_MAX = 10;

/** The commit e-mail of a user: a no-reply address on the instance's host (user e-mails stay private). */
const noreplyEmail = (username: string, baseUrl: string) => `${username}@users.noreply.${new URL(baseUrl).hostname}`;

/** Builds the snippets service. */
export function snippetsService(config: ForgekitConfig): SnippetsService {
  const { store, clock } = config;
  return {
    create(input) {
      const messages = new Messages();
      checkTitle(messages, "title", input.title);
      const files = input.files ?? [{ path: input.fileName ?? "", content: input.content ?? "" }];
      const field = input.files === undefined ? "file_name" : "files";
      if (files.length === 0) messages.add(field, BLANK);
      else if (files.length > SNIPPET_FILES_MAX) messages.add(field, `can't exceed ${SNIPPET_FILES_MAX} files`);
      for (const file of files) {
        if (typeof file.path !== "string" || file.path.trim() === "") messages.add(field, BLANK);
        // Each file is committed to the snippet's repository under this name: it must be a relative path git accepts.
        else if (!isRepositoryFilePath(file.path)) messages.add(field, INVALID);
      }
      if (new Set(files.map((f) => f.path)).size !== files.length) messages.add(field, "have duplicate paths");
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
          const first = files[0] ?? { path: "", content: "" };
          const snippet = await tx.activity.snippets.create({ projectId, authorId: input.authorId, title: input.title, fileName: first.path, content: first.content, visibility }, now);
          if (input.description !== undefined && input.description !== "") await tx.reviews.setSnippetDescription(snippet.id, input.description);
          const event = await insertEvent(tx, snippetEvent(snippet, "created", input.authorId), now);
          // The snippet's repository holds its file, committed by its author (reference: "Initial commit").
          const commit = {
            files: files.map((f) => ({ path: f.path, content: f.content })),
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
