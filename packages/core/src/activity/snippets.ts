/** Project and personal snippets (host API: `fk.snippets`); creating one records `created`. */
import { err, type ResultAsync } from "neverthrow";
import { attempt, BLANK, inTransaction, Messages } from "../accounts/service-kit.js";
import type { Visibility } from "../accounts/types.js";
import { visibilityWithin } from "../accounts/validation.js";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import { insertEvent } from "../events/record.js";
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

/** Builds the snippets service. */
export function snippetsService(config: ForgekitConfig): SnippetsService {
  const { store, clock } = config;
  return {
    create(input) {
      const messages = new Messages();
      checkTitle(messages, "title", input.title);
      if (typeof input.fileName !== "string" || input.fileName.trim() === "") messages.add("file_name", BLANK);
      const visibility = input.visibility ?? "private";
      if (!VISIBILITIES.includes(visibility)) messages.add("visibility", "is not included in the list");
      return messages.result(input).asyncAndThen(() =>
        inTransaction(store, async (tx) => {
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
          return event.map(() => snippet);
        }),
      );
    },
    find: (id) => attempt(async () => foundOr404(isRecordId(id) ? await store.activity.snippets.findById(id) : null, "Snippet")),
  };
}
