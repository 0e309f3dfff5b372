/** `API::Entities::Discussion`: a discussion's id, whether it is one plain note, and its notes. */
import type { User } from "../accounts/types.js";
import { noteEntity } from "../activity/entities.js";
import { isIndividual } from "../activity/note-fields.js";
import type { DiscussionRecord } from "../ports/discussions-store.js";

/** One discussion; `users` holds its notes' authors and resolvers. */
export function discussionEntity(discussion: DiscussionRecord, users: ReadonlyMap<number, User>, noteableIid: number | null, baseUrl: string) {
  return {
    id: discussion.id,
    individual_note: isIndividual(discussion.notes),
    notes: discussion.notes.map((note) => noteEntity(note, users, noteableIid, baseUrl)),
  };
}
