/**
 * Release asset links as the reference validates them (`Releases::Link`): a name, an http(s) or ftp
 * URL, an optional `filepath` (`direct_asset_path`) below the release's download URL, and a type;
 * name, url and filepath unique within the release.
 */
import { err, ok, type Result } from "neverthrow";
import { errors, type ForgekitError } from "../errors.js";
import type { NewReleaseLink, ReleaseLinkWrite } from "../ports/releases-store.js";
import { RELEASE_LINK_TYPES, type ReleaseLinkType } from "./types.js";

/** Reference `Releases::Link::FILEPATH_REGEX`: `/`, then segments of word characters, `.` and `-`, ending in a letter or digit. */
const FILEPATH = /^\/(?:[-.\w]+\/?)*[\da-zA-Z]+$/;
const MAX_NAME = 255;
const MAX_URL = 2048;

/** A link's fields as sent (`direct_asset_path` is the newer name of `filepath`). */
export interface LinkFields {
  name?: string | undefined;
  url?: string | undefined;
  filepath?: string | undefined;
  direct_asset_path?: string | undefined;
  link_type?: string | undefined;
}

function validUrl(url: string): boolean {
  try {
    return ["http:", "https:", "ftp:"].includes(new URL(url).protocol);
  } catch {
    return false;
  }
}

/** The messages per field of a link, empty when it is valid. `partial`: only the fields given are checked (updates). */
export function linkMessages(fields: LinkFields, partial: boolean): Record<string, string[]> {
  const messages: Record<string, string[]> = {};
  const add = (field: string, message: string) => (messages[field] ??= []).push(message);
  if (fields.name !== undefined || !partial) {
    const name = fields.name?.trim() ?? "";
    if (name === "") add("name", "can't be blank");
    else if (name.length > MAX_NAME) add("name", `is too long (maximum is ${MAX_NAME} characters)`);
  }
  if (fields.url !== undefined || !partial) {
    const url = fields.url?.trim() ?? "";
    if (url === "") add("url", "can't be blank");
    else if (url.length > MAX_URL) add("url", `is too long (maximum is ${MAX_URL} characters)`);
    else if (!validUrl(url)) add("url", "is blocked: Only allowed schemes are http, https, ftp");
  }
  const path = fields.direct_asset_path ?? fields.filepath;
  if (path !== undefined && path !== "" && !FILEPATH.test(path)) add("filepath", "is in an invalid format");
  if (fields.link_type !== undefined && !(RELEASE_LINK_TYPES as readonly string[]).includes(fields.link_type)) add("link_type", "is not included in the list");
  return messages;
}

/** A new link from its fields (validated). */
export function newLink(fields: LinkFields): Result<NewReleaseLink, ForgekitError> {
  const messages = linkMessages(fields, false);
  if (Object.keys(messages).length > 0) return err(errors.validation(messages));
  const path = fields.direct_asset_path ?? fields.filepath;
  return ok({ name: (fields.name ?? "").trim(), url: (fields.url ?? "").trim(), filepath: path === undefined || path === "" ? null : path, linkType: (fields.link_type ?? "other") as ReleaseLinkType });
}

/** The change an update asks for (validated). */
export function linkPatch(fields: LinkFields): Result<Partial<NewReleaseLink>, ForgekitError> {
  const messages = linkMessages(fields, true);
  if (Object.keys(messages).length > 0) return err(errors.validation(messages));
  const path = fields.direct_asset_path ?? fields.filepath;
  return ok({
    ...(fields.name === undefined ? {} : { name: fields.name.trim() }),
    ...(fields.url === undefined ? {} : { url: fields.url.trim() }),
    ...(path === undefined ? {} : { filepath: path === "" ? null : path }),
    ...(fields.link_type === undefined ? {} : { linkType: fields.link_type as ReleaseLinkType }),
  });
}

/** The 400 of a refused link write. */
export function refusal(write: Exclude<ReleaseLinkWrite, { link: unknown }>): ForgekitError {
  const field = write.refused === "name_taken" ? "name" : write.refused === "url_taken" ? "url" : "filepath";
  return errors.validation({ [field]: ["has already been taken"] });
}

/** Links of a new release must differ in name, url and filepath among themselves. */
export function duplicateAmong(links: readonly NewReleaseLink[]): ForgekitError | null {
  const seen = { name: new Set<string>(), url: new Set<string>(), filepath: new Set<string>() };
  for (const l of links) {
    if (seen.name.has(l.name) || seen.url.has(l.url) || (l.filepath !== null && seen.filepath.has(l.filepath))) return errors.badRequestMessage("Validation failed: Links have duplicate values");
    seen.name.add(l.name);
    seen.url.add(l.url);
    if (l.filepath !== null) seen.filepath.add(l.filepath);
  }
  return null;
}
