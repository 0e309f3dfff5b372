/** The discussions capability: threaded notes on issues, merge requests and snippets, diff notes and their resolution. */
import type { NotesService } from "../activity/notes.js";
import type { ForgekitConfig } from "../config.js";
import { tagRoutes } from "../http/route-kit.js";
import type { AnyRoute } from "../http/router.js";
import { discussionRoutes } from "./routes.js";

export type { DiscussionsService, DiscussionNoteInput, NoteableRef } from "./service.js";

/** The discussion routes (tagged `Discussions`) over the notes service. */
export function discussionsCapability(config: ForgekitConfig, notes: NotesService): AnyRoute[] {
  return tagRoutes("Discussions", discussionRoutes(config, notes));
}
