/**
 * Query-string and form-body decoding with Rack's nesting rules, so clients written for the
 * reference work unchanged (spec "Endpoints" preamble): `a[]=x` arrays, `a[k]=x` hashes,
 * `a[0][k]=x` / `a[][k]=x` arrays of hashes. `+` is a space, `%2B` a plus.
 */
import type { ParamValue, Params } from "./types.js";

type Hash = { [key: string]: ParamValue };

/** Deepest bracket nesting honoured; deeper keys are ignored (unknown parameters are ignored anyway). */
const MAX_DEPTH = 16;

/** Keys that would reach an object's prototype; such parameters are dropped. */
export function isUnsafeKey(key: string): boolean {
  return key === "__proto__";
}

/** Decodes `application/x-www-form-urlencoded` text (a query string or a form body) into nested params. */
export function parseQuery(raw: string): Params {
  const pairs: [string, ParamValue][] = [];
  for (const pair of raw.split("&")) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    // A key without `=` is present with no value (Rack: nil).
    pairs.push([decodeComponent(eq === -1 ? pair : pair.slice(0, eq)), eq === -1 ? null : decodeComponent(pair.slice(eq + 1))]);
  }
  return nestPairs(pairs);
}

/** Builds nested params from decoded `name[…]` keys and their values (query, form and multipart fields). */
export function nestPairs(pairs: Iterable<readonly [string, ParamValue]>): Params {
  const out: Hash = {};
  const indexed = new WeakSet<Hash>();
  for (const [key, value] of pairs) {
    const path = splitKey(key);
    if (path === null || path.some(isUnsafeKey)) continue;
    insert(out, path, value, indexed);
  }
  return toArrays(out, indexed) as Params;
}

/** Percent-decodes one component; `+` is a space. Malformed escapes are kept literally. */
export function decodeComponent(text: string): string {
  const spaced = text.includes("+") ? text.replace(/\+/g, " ") : text;
  if (!spaced.includes("%")) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced.replace(/(%[0-9A-Fa-f]{2})+/g, decodeRun);
  }
}

/** Decodes a run of `%XX` escapes, keeping the escapes of bytes that are not valid UTF-8 as they are. */
function decodeRun(run: string): string {
  const escapes = run.match(/%[0-9A-Fa-f]{2}/g) ?? [];
  let out = "";
  for (let i = 0; i < escapes.length; ) {
    let step = 0;
    // A UTF-8 sequence is 1 to 4 bytes: take the longest that decodes.
    for (let n = Math.min(4, escapes.length - i); n > 0 && step === 0; n--) {
      try {
        out += decodeURIComponent(escapes.slice(i, i + n).join(""));
        step = n;
      } catch {
        // try a shorter sequence
      }
    }
    if (step === 0) {
      out += escapes[i] as string;
      step = 1;
    }
    i += step;
  }
  return out;
}

/** `a[b][]` → `["a", "b", ""]`; a key whose brackets do not parse is one literal name. */
function splitKey(key: string): string[] | null {
  if (key === "") return null;
  const open = key.indexOf("[");
  if (open <= 0) return [key];
  const rest = key.slice(open);
  const subkeys: string[] = [];
  const re = /\[([^[\]]*)\]/y;
  let at = 0;
  while (at < rest.length) {
    re.lastIndex = at;
    const m = re.exec(rest);
    if (m === null) return [key];
    subkeys.push(m[1] ?? "");
    at = re.lastIndex;
  }
  if (subkeys.length >= MAX_DEPTH) return null;
  return [key.slice(0, open), ...subkeys];
}

function isHash(value: ParamValue | undefined): value is Hash {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function insert(target: Hash, path: string[], value: ParamValue, indexed: WeakSet<Hash>): void {
  const [key, next, ...rest] = path as [string, ...string[]];
  if (next === undefined) {
    target[key] = value;
    return;
  }
  if (next === "") {
    const current = target[key];
    const list: ParamValue[] = Array.isArray(current) ? current : [];
    target[key] = list;
    if (rest.length === 0) {
      list.push(value);
      return;
    }
    // `a[][k]=1&a[][j]=2&a[][k]=3` → [{k:1,j:2},{k:3}]: a repeated key starts a new hash (Rack).
    const last = list[list.length - 1];
    if (isHash(last) && !hasPath(last, rest)) {
      insert(last, rest, value, indexed);
    } else {
      const fresh: Hash = {};
      list.push(fresh);
      insert(fresh, rest, value, indexed);
    }
    return;
  }
  const current = target[key];
  let child: Hash;
  if (isHash(current)) {
    child = current;
  } else {
    child = {};
    target[key] = child;
  }
  if (/^\d+$/.test(next)) indexed.add(child);
  insert(child, [next, ...rest], value, indexed);
}

function hasPath(hash: Hash, path: string[]): boolean {
  const [key, ...rest] = path as [string, ...string[]];
  if (key === "" || !Object.prototype.hasOwnProperty.call(hash, key)) return false;
  if (rest.length === 0) return true;
  const child = hash[key];
  return isHash(child) && hasPath(child, rest);
}

/** Hashes built from `[0]`, `[1]`… keys become arrays in index order (Grape's `Array[JSON]` coercion). */
function toArrays(value: ParamValue, indexed: WeakSet<Hash>): ParamValue {
  if (Array.isArray(value)) return value.map((v) => toArrays(v, indexed));
  if (!isHash(value)) return value;
  const keys = Object.keys(value);
  if (indexed.has(value) && keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
    return keys
      .map((k) => [Number(k), value[k] as ParamValue] as const)
      .sort((a, b) => a[0] - b[0])
      .map(([, v]) => toArrays(v, indexed));
  }
  for (const k of keys) value[k] = toArrays(value[k] as ParamValue, indexed);
  return value;
}
