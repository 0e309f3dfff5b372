/**
 * git's rules for a ref name (`git check-ref-format`, refs.c `check_refname_component`), decided
 * here instead of in a `git` process per branch or tag write: a component may not begin with `.` or
 * end with `.lock`; the name may not contain `..`, `@{`, `\`, a control character, space, `~`, `^`,
 * `:`, `?`, `*` or `[`, may not begin or end with `/` or hold `//`, may not end with `.`, and may not
 * be `@`. ref-names.test.ts checks these answers against git itself.
 */

// Control characters (NUL..US, DEL) and the characters git forbids anywhere in a ref name.
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\x00-\x20\x7f~^:?*[\\]/;

/** Whether `refname` (a full name such as `refs/heads/main`) is a name git accepts. */
export function isValidRefName(refname: string): boolean {
  if (refname === "" || refname === "@" || refname.endsWith(".") || refname.endsWith("/")) return false;
  if (FORBIDDEN.test(refname) || refname.includes("..") || refname.includes("@{")) return false;
  const components = refname.split("/");
  // git check-ref-format (without --allow-onelevel) wants at least two components.
  if (components.length < 2) return false;
  return components.every((c) => c !== "" && !c.startsWith(".") && !c.endsWith(".lock"));
}
