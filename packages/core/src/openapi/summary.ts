/**
 * One-line summaries of routes, derived from method and path when a route declares none:
 * `GET /projects/:id/issues` → "List issues of a project", `POST /users/:id/block` → "Block a user".
 */
import type { AnyRoute } from "../http/router.js";

/** `merge_requests` → `merge request` (the few plural forms the table uses). */
export function singular(word: string): string {
  const w = word.replace(/[_-]/g, " ");
  if (/ies$/.test(w)) return w.replace(/ies$/, "y");
  if (/(sses|ches|shes|xes)$/.test(w)) return w.slice(0, -2);
  if (/[^s]s$/.test(w)) return w.slice(0, -1);
  return w;
}

const humane = (word: string): string => word.replace(/[_-]/g, " ");
const article = (noun: string): string => (/^([aeio]|u(?!s))/i.test(noun) ? `an ${noun}` : `a ${noun}`);
const capital = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
/** Plural collections; `settings` names one object (`/notification_settings`). */
const isPlural = (word: string): boolean => !word.endsWith("settings") && singular(word) !== humane(word);

/** The owner of the last resource: the literal before the last placeholder that precedes index `end`. */
function owner(segments: readonly string[], end: number): string | null {
  for (let i = end - 1; i > 0; i--) {
    if ((segments[i] as string).startsWith(":") && !(segments[i - 1] as string).startsWith(":")) return singular(segments[i - 1] as string);
  }
  return null;
}

/** The route's summary: its own, or one derived from its method and path. */
export function routeSummary(route: Pick<AnyRoute, "method" | "path" | "summary">): string {
  if (route.summary !== undefined) return route.summary;
  const segments = route.path.split("/").filter((s) => s !== "");
  const last = segments.length - 1;
  const tail = segments[last] ?? "";
  const of = (end: number) => {
    const o = owner(segments, end);
    return o === null ? "" : ` of ${article(o)}`;
  };
  if (tail.startsWith(":")) {
    const noun = singular(segments[last - 1] ?? "resource");
    const verb = { GET: "Get", POST: "Create", PUT: "Update", PATCH: "Update", DELETE: "Delete" }[route.method];
    return `${verb} ${article(noun)}${of(last - 1)}`;
  }
  if (isPlural(tail)) {
    const noun = humane(tail);
    switch (route.method) {
      case "GET":
        return `List ${noun}${of(last)}`;
      case "POST":
        return `Create ${article(singular(tail))}${of(last)}`;
      case "DELETE":
        return `Delete ${noun}${of(last)}`;
      default:
        return `Update ${noun}${of(last)}`;
    }
  }
  // An action or a singular resource below an item: `POST /users/:id/block`, `GET /projects/:id/import`.
  const before = segments[last - 1];
  if (tail === "raw") {
    const noun = segments.slice(0, last).reverse().find((s) => !s.startsWith(":")) ?? "resource";
    return `Get the raw content of ${article(singular(noun))}`;
  }
  if (before !== undefined && before.startsWith(":") && route.method === "POST") {
    return `${capital(humane(tail))} ${article(singular(segments[last - 2] ?? "resource"))}${of(last - 1)}`;
  }
  const verb = { GET: "Get", POST: "Create", PUT: "Update", PATCH: "Update", DELETE: "Delete" }[route.method];
  return `${verb} ${before === undefined || before.startsWith(":") ? "the" : humane(before)} ${humane(tail)}${of(last)}`.replace(/ +/g, " ");
}
