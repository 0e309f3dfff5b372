/**
 * The documentation site's route list (docs/reference/routes.md) (issue 11 "Done means"): a markdown table of every route, written between
 * `<!-- routes:start -->` and `<!-- routes:end -->`.
 */
import { API_ROOT, type AnyRoute } from "../http/router.js";
import { routeSummary } from "./summary.js";

/** The marker line the route list starts after (in a markdown file). */
export const ROUTES_START = "<!-- routes:start -->";
/** The marker line the route list ends before. */
export const ROUTES_END = "<!-- routes:end -->";

/** One row per route, grouped by capability in the table's order. */
export function routeListMarkdown(routes: readonly AnyRoute[]): string {
  const tags: string[] = [];
  for (const route of routes) if (!tags.includes(route.tag ?? "Other")) tags.push(route.tag ?? "Other");
  const rows = tags.flatMap((tag) =>
    routes.filter((r) => (r.tag ?? "Other") === tag).map((r) => `| ${tag} | \`${r.method}\` | \`${API_ROOT}${r.path}\` | ${routeSummary(r).replaceAll("|", "\\|")} |`),
  );
  return [`${routes.length} routes, generated from the route table.`, "", "| Area | Method | Path | Summary |", "|---|---|---|---|", ...rows].join("\n");
}

/** `text` with the part between the markers replaced by `list`; throws when the markers are missing. */
export function withRouteList(text: string, list: string): string {
  const start = text.indexOf(ROUTES_START);
  const end = text.indexOf(ROUTES_END);
  if (start === -1 || end < start) throw new Error(`the file has no ${ROUTES_START} … ${ROUTES_END} markers`);
  return `${text.slice(0, start + ROUTES_START.length)}\n${list}\n${text.slice(end)}`;
}
