/**
 * One wording for every configuration error (issue 13 "Configuration"): each zod issue becomes
 * `{ path, message }` where the message completes the sentence "<path> …" — "is required",
 * "must be a string", "must be one of free, premium, ultimate", "is not a known option".
 * Messages the schema words itself (custom checks, "must …") are kept as they are.
 */
import type * as z from "zod";

/** A configuration problem: the dotted path of the field, and what is wrong with it. */
export interface ConfigIssue {
  path: string;
  message: string;
}

const article = (noun: string) => (/^[aeiou]/.test(noun) ? `an ${noun}` : `a ${noun}`);

function bound(kind: "at least" | "at most", issue: { origin?: string; inclusive?: boolean }, value: unknown): string {
  const amount = String(value);
  if (issue.origin === "string") return `must be ${kind} ${amount} characters long`;
  if (issue.origin === "array" || issue.origin === "set") return `must have ${kind} ${amount} item${amount === "1" ? "" : "s"}`;
  if (issue.inclusive === false) return `must be ${kind === "at least" ? "greater" : "less"} than ${amount}`;
  return `must be ${kind} ${amount}`;
}

/** The issues of a failed parse, one per problem (an unknown-keys issue becomes one per key). */
export function describeConfigIssues(issues: readonly z.core.$ZodIssue[]): ConfigIssue[] {
  const out: ConfigIssue[] = [];
  for (const issue of issues) {
    const path = issue.path.map(String).join(".");
    switch (issue.code) {
      case "unrecognized_keys":
        for (const key of issue.keys) out.push({ path: path === "" ? key : `${path}.${key}`, message: "is not a known option" });
        break;
      case "invalid_type":
        out.push({ path, message: /received undefined$/.test(issue.message) ? "is required" : `must be ${article(issue.expected)}` });
        break;
      case "invalid_value":
        out.push({ path, message: issue.values.length === 1 ? `must be ${String(issue.values[0])}` : `must be one of ${issue.values.map(String).join(", ")}` });
        break;
      case "too_small":
        out.push({ path, message: bound("at least", issue, issue.minimum) });
        break;
      case "too_big":
        out.push({ path, message: bound("at most", issue, issue.maximum) });
        break;
      default:
        out.push({ path, message: issue.message });
    }
  }
  return out;
}
