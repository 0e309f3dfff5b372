/** In-memory {@link ReleaseRepository}: releases unique per project and tag, links unique per release. */
import type { ReleaseLinkWrite, ReleaseOrder, ReleaseRepository } from "../ports/releases-store.js";
import type { Release, ReleaseLink } from "../releases/types.js";
import { offsetPage } from "./pagination.js";
import { copy, type MemoryState, type Runner } from "./state.js";

function compare(order: ReleaseOrder): (a: Release, b: Release) => number {
  const key = (r: Release) => (order.orderBy === "released_at" ? r.releasedAt : r.createdAt).getTime();
  const sign = order.sort === "asc" ? 1 : -1;
  return (a, b) => sign * (key(a) - key(b) || a.id - b.id);
}

/** The refusal a link write meets among the release's other links, or null. */
function clash(state: MemoryState, link: Omit<ReleaseLink, "id" | "createdAt" | "updatedAt"> & { id?: number }): ReleaseLinkWrite | null {
  for (const other of state.releases.links.values()) {
    if (other.releaseId !== link.releaseId || other.id === link.id) continue;
    if (other.name === link.name) return { refused: "name_taken" };
    if (other.url === link.url) return { refused: "url_taken" };
    if (link.filepath !== null && other.filepath === link.filepath) return { refused: "filepath_taken" };
  }
  return null;
}

/** Drops the releases and links of a project (projects.remove). */
export function dropProjectReleases(state: MemoryState, projectId: number): void {
  for (const [id, release] of state.releases.releases) {
    if (release.projectId !== projectId) continue;
    state.releases.releases.delete(id);
    for (const [linkId, link] of state.releases.links) if (link.releaseId === id) state.releases.links.delete(linkId);
  }
}

/** Forgets a removed user as release author. */
export function forgetReleaseAuthor(state: MemoryState, userId: number): void {
  for (const release of [...state.releases.releases.values()]) if (release.authorId === userId) state.releases.releases.set(release.id, { ...release, authorId: null });
}

export function memoryReleases(run: Runner): ReleaseRepository {
  return {
    create: (input, links, now) =>
      run((state) => {
        if (!state.projects.has(input.projectId)) throw new Error(`project ${input.projectId} does not exist`);
        for (const r of state.releases.releases.values()) if (r.projectId === input.projectId && r.tagName === input.tagName) return null;
        const release: Release = { ...copy(input), id: ++state.releases.seq.releases, updatedAt: new Date(now) };
        state.releases.releases.set(release.id, release);
        for (const link of links) {
          const id = ++state.releases.seq.links;
          state.releases.links.set(id, { ...copy(link), id, releaseId: release.id, createdAt: new Date(now), updatedAt: new Date(now) });
        }
        return copy(release);
      }),
    find: (projectId, tagName) =>
      run((state) => {
        for (const r of state.releases.releases.values()) if (r.projectId === projectId && r.tagName === tagName) return copy(r);
        return null;
      }),
    findByTags: (projectId, tagNames) =>
      run((state) => {
        const names = new Set(tagNames);
        return [...state.releases.releases.values()].filter((r) => r.projectId === projectId && names.has(r.tagName)).map(copy);
      }),
    list: (projectId, order, page) =>
      run((state) => offsetPage([...state.releases.releases.values()].filter((r) => r.projectId === projectId).sort(compare(order)), page, copy)),
    update: (id, patch, now) =>
      run((state) => {
        const release = state.releases.releases.get(id);
        if (release === undefined) return null;
        const next: Release = { ...release, ...copy(patch), updatedAt: new Date(now) };
        state.releases.releases.set(id, next);
        return copy(next);
      }),
    remove: (id) =>
      run((state) => {
        if (!state.releases.releases.delete(id)) return false;
        for (const [linkId, link] of state.releases.links) if (link.releaseId === id) state.releases.links.delete(linkId);
        return true;
      }),
    links: (releaseIds) =>
      run((state) => [...state.releases.links.values()].filter((l) => releaseIds.includes(l.releaseId)).sort((a, b) => a.id - b.id).map(copy)),
    addLink: (releaseId, input, now) =>
      run((state) => {
        if (!state.releases.releases.has(releaseId)) return null;
        const refused = clash(state, { ...input, releaseId });
        if (refused !== null) return refused;
        const link: ReleaseLink = { ...copy(input), id: ++state.releases.seq.links, releaseId, createdAt: new Date(now), updatedAt: new Date(now) };
        state.releases.links.set(link.id, link);
        return { link: copy(link) };
      }),
    updateLink: (releaseId, linkId, patch, now) =>
      run((state) => {
        const link = state.releases.links.get(linkId);
        if (link === undefined || link.releaseId !== releaseId) return null;
        const next: ReleaseLink = { ...link, ...copy(patch), updatedAt: new Date(now) };
        const refused = clash(state, next);
        if (refused !== null) return refused;
        state.releases.links.set(linkId, next);
        return { link: copy(next) };
      }),
    removeLink: (releaseId, linkId) =>
      run((state) => {
        const link = state.releases.links.get(linkId);
        if (link === undefined || link.releaseId !== releaseId) return null;
        state.releases.links.delete(linkId);
        return copy(link);
      }),
  };
}
