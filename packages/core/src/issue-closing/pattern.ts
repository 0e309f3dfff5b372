/**
 * The reference's default issue closing pattern (`gitlab.yml` `issue_closing_pattern`,
 * `Gitlab::ClosingIssueExtractor`): a closing word — close/closes/closed/closing, fix/fixes/fixed/
 * fixing, resolve/resolves/resolved/resolving, implement/implements/implemented/implementing —
 * an optional `:`, then one or more issue references (`#1`, `group/project#1`, `project#1`, or a
 * link to an issue), optionally after `issue`/`issues`, joined by commas and `and`.
 */

/** One issue reference a closing phrase names: `path` null for the text's own project. */
export interface ClosingReference {
  path: string | null;
  iid: number;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const PATH = String.raw`(?:[A-Za-z0-9_][A-Za-z0-9_.-]*\/)*[A-Za-z0-9_][A-Za-z0-9_.-]*`;

/** `%{issue_ref}`: a short reference or a link to an issue on this instance. */
function issueRef(baseUrl: string): string {
  const base = escape(baseUrl.replace(/\/$/, ""));
  return String.raw`(?:(?:${PATH})?#\d+|${base}\/${PATH}\/(?:-\/)?issues\/\d+)`;
}

/** The closing pattern for an instance at `baseUrl` (global: every phrase of a text). */
export function closingPattern(baseUrl: string): RegExp {
  const ref = issueRef(baseUrl);
  const words = String.raw`(?:[Cc]los(?:e[sd]?|ing)|\b[Ff]ix(?:e[sd]|ing)?|\b[Rr]esolv(?:e[sd]?|ing)|\b[Ii]mplement(?:s|ed|ing)?)`;
  return new RegExp(String.raw`\b${words}(?::?) +(?:(?:issues? +)?${ref}(?:(?: *,? +and +| *,? *)?)|[A-Z][A-Z0-9_]+-\d+)+`, "g");
}

/** Every issue reference inside the closing phrases of `text`, in order, without repeats. */
export function closingReferences(text: string, baseUrl: string): ClosingReference[] {
  const base = baseUrl.replace(/\/$/, "");
  const link = new RegExp(String.raw`^${escape(base)}\/(${PATH})\/(?:-\/)?issues\/(\d+)$`);
  const short = new RegExp(String.raw`^(${PATH})?#(\d+)$`);
  const refs = new RegExp(issueRef(baseUrl), "g");
  const out: ClosingReference[] = [];
  const seen = new Set<string>();
  for (const phrase of text.matchAll(closingPattern(baseUrl))) {
    for (const m of phrase[0].matchAll(refs)) {
      const parts = link.exec(m[0]) ?? short.exec(m[0]);
      if (parts === null) continue;
      const ref = { path: parts[1] ?? null, iid: Number.parseInt(parts[2] ?? "", 10) };
      const key = `${ref.path ?? ""}#${ref.iid}`;
      if (!Number.isSafeInteger(ref.iid) || seen.has(key)) continue;
      seen.add(key);
      out.push(ref);
    }
  }
  return out;
}
