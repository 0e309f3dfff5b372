/**
 * The URL guard of imports (issue 10 §3; reference §3.1 check 1 and §4 check 1): `extforge_hostname`
 * and `extserver_url` must be http(s) and must not reach the instance's own network — loopback,
 * private (RFC 1918, fc00::/7), link-local (169.254/16, fe80::/10), carrier-grade NAT (100.64/10),
 * unspecified, multicast and reserved addresses — unless the instance allows local network imports
 * (`imports.allowLocalNetwork`). Cloud metadata addresses (169.254.169.254, fd00:ec2::254) are refused
 * even then: nothing an import needs lives there, and credentials do.
 *
 * Names are resolved and every address is checked; IPv4-mapped, IPv4-compatible, NAT64 and 6to4
 * IPv6 addresses are checked as the IPv4 address they carry. {@link guardedFetch} does the same at
 * connect time for every request and every redirect hop (its DNS lookup is the checked one, so a
 * name cannot resolve to a public address for the check and a private one for the connection).
 */
import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import { err, ok, type Result } from "neverthrow";

/** Resolves a host name to all its addresses (default: the system resolver, `dns.lookup` with `all`). */
export type HostLookup = (hostname: string) => Promise<readonly { address: string; family: number }[]>;

/** How the guard decides. */
export interface UrlGuardOptions {
  /** Allow loopback, private and link-local addresses (metadata addresses stay refused). */
  allowLocalNetwork: boolean;
  /** Name resolution (tests inject one that maps names to private addresses). */
  lookup?: HostLookup;
}

/** Why a URL was refused. */
export type UrlRefusalReason = "malformed" | "scheme" | "unresolvable" | "local_address" | "metadata_address";

/** A refused URL. `message` is the reference's `Invalid URL: <url>` (credentials removed from the URL). */
export interface UrlRefusal {
  reason: UrlRefusalReason;
  message: string;
  /** The refused address, when an address was refused. */
  address?: string;
}

/** The system resolver: every address, in the resolver's order. */
export const systemLookup: HostLookup = async (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** `raw` without user info, for messages (a URL may carry `user:password@`). */
export function displayUrl(raw: string): string {
  try {
    const url = new URL(raw);
    url.username = "";
    url.password = "";
    return url.href;
  } catch {
    return raw.replace(/\/\/[^/@]*@/, "//");
  }
}

const refusal = (raw: string, reason: UrlRefusalReason, address?: string): UrlRefusal =>
  address === undefined ? { reason, message: `Invalid URL: ${displayUrl(raw)}` } : { reason, message: `Invalid URL: ${displayUrl(raw)}`, address };

/** Parses an IPv4 dotted quad into a 32-bit number. */
function ipv4Number(address: string): number | undefined {
  const parts = address.split(".");
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return undefined;
    const n = Number(part);
    if (n > 255) return undefined;
    value = value * 256 + n;
  }
  return value;
}

/** IPv4 ranges refused without `allowLocalNetwork`: [base, prefix length]. */
const LOCAL_V4: readonly (readonly [string, number])[] = [
  ["0.0.0.0", 8], // "this network", unspecified
  ["10.0.0.0", 8], // RFC 1918
  ["100.64.0.0", 10], // carrier-grade NAT, RFC 6598
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local
  ["172.16.0.0", 12], // RFC 1918
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.168.0.0", 16], // RFC 1918
  ["198.18.0.0", 15], // benchmarking
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
];

const METADATA_V4 = new Set(["169.254.169.254", "169.254.170.2", "100.100.100.200"]);

const inV4Range = (value: number, base: string, prefix: number): boolean => {
  const start = ipv4Number(base) ?? 0;
  const size = 2 ** (32 - prefix);
  return value >= start && value < start + size;
};

/** Expands an IPv6 address (no zone) into 8 16-bit groups; an embedded dotted quad is converted. */
function ipv6Groups(address: string): number[] | undefined {
  let text = address.toLowerCase();
  const zone = text.indexOf("%");
  if (zone >= 0) text = text.slice(0, zone);
  const dotted = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (dotted?.[1] !== undefined) {
    const v4 = ipv4Number(dotted[1]);
    if (v4 === undefined) return undefined;
    text = `${text.slice(0, dotted.index)}${((v4 >>> 16) & 0xffff).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const parse = (s: string) => (s === "" ? [] : s.split(":").map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN)));
  const head = parse(halves[0] ?? "");
  const tail = halves.length === 2 ? parse(halves[1] ?? "") : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  return groups.some((g) => Number.isNaN(g)) ? undefined : groups;
}

/** How an address is classified: `public`, `local` (refused unless allowed) or `metadata` (always refused). */
export function classifyAddress(address: string): "public" | "local" | "metadata" {
  const family = isIP(address.replace(/^\[|\]$/g, "").replace(/%.*$/, ""));
  const bare = address.replace(/^\[|\]$/g, "");
  if (family === 4) {
    const value = ipv4Number(bare);
    if (value === undefined) return "local";
    if (METADATA_V4.has(bare)) return "metadata";
    return LOCAL_V4.some(([base, prefix]) => inV4Range(value, base, prefix)) ? "local" : "public";
  }
  if (family !== 6) return "local"; // not an address at all: never treat it as public
  const g = ipv6Groups(bare);
  if (g === undefined) return "local";
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const embedded = (hi: number, lo: number) => classifyAddress(`${hi >>> 8}.${hi & 0xff}.${lo >>> 8}.${lo & 0xff}`);
  const zeros = (...groups: number[]) => groups.every((x) => x === 0);
  // fd00:ec2::254 (AWS IMDS over IPv6).
  if (g0 === 0xfd00 && g1 === 0x0ec2 && zeros(g2, g3, g4, g5, g6) && g7 === 0x254) return "metadata";
  if (zeros(g0, g1, g2, g3, g4, g5, g6) && (g7 === 0 || g7 === 1)) return "local"; // :: and ::1
  if (zeros(g0, g1, g2, g3, g4) && g5 === 0xffff) return embedded(g6, g7); // ::ffff:a.b.c.d (mapped)
  if (zeros(g0, g1, g2, g3, g4, g5)) return embedded(g6, g7); // ::a.b.c.d (compatible, deprecated)
  if (zeros(g0, g1, g2, g3) && g4 === 0xffff && g5 === 0) return embedded(g6, g7); // ::ffff:0:a.b.c.d (translated)
  if (g0 === 0x64 && g1 === 0xff9b && zeros(g2, g3, g4, g5)) return embedded(g6, g7); // NAT64
  if (g0 === 0x2002) return embedded(g1, g2); // 6to4
  if ((g0 & 0xfe00) === 0xfc00) return "local"; // fc00::/7 unique local
  if ((g0 & 0xffc0) === 0xfe80 || (g0 & 0xffc0) === 0xfec0) return "local"; // link-local, site-local
  if ((g0 & 0xff00) === 0xff00) return "local"; // multicast
  if (g0 === 0x100 && zeros(g1, g2, g3)) return "local"; // discard prefix
  if (g0 === 0x2001 && g1 === 0xdb8) return "local"; // documentation
  return "public";
}

/** Whether `address` may be connected to under `options`. */
export function addressAllowed(address: string, options: Pick<UrlGuardOptions, "allowLocalNetwork">): boolean {
  const kind = classifyAddress(address);
  return kind === "public" || (kind === "local" && options.allowLocalNetwork);
}

/** The host of a URL as an address (`[::1]` → `::1`), or undefined when it is a name. */
const literalAddress = (hostname: string): string | undefined => {
  const bare = hostname.replace(/^\[|\]$/g, "");
  return isIP(bare) === 0 ? undefined : bare;
};

/**
 * Checks a URL a user gave: absolute http(s), and every address its host resolves to allowed.
 * Resolves the parsed URL, or the refusal whose `message` is the 400 body's text.
 */
export async function checkUrl(raw: string, options: UrlGuardOptions): Promise<Result<URL, UrlRefusal>> {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return err(refusal(raw, "malformed"));
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return err(refusal(raw, "scheme"));
  if (url.hostname === "") return err(refusal(raw, "malformed"));
  const checked = await resolveAllowed(url.hostname, options);
  if (checked.isErr()) return err(refusal(raw, checked.error.reason, checked.error.address));
  return ok(url);
}

/** Resolves `hostname` and checks every address; the allowed addresses, or why not. */
export async function resolveAllowed(
  hostname: string,
  options: UrlGuardOptions,
): Promise<Result<{ address: string; family: 4 | 6 }[], { reason: "unresolvable" | "local_address" | "metadata_address"; address?: string; code?: string }>> {
  const literal = literalAddress(hostname);
  let addresses: readonly { address: string; family: number }[];
  if (literal !== undefined) {
    addresses = [{ address: literal, family: isIP(literal) }];
  } else {
    try {
      addresses = await (options.lookup ?? systemLookup)(hostname);
    } catch (error) {
      // Keep the resolver's code (ENOTFOUND, EAI_AGAIN): a name that does not resolve now may later.
      const code = (error as { code?: unknown } | null)?.code;
      return err(typeof code === "string" ? { reason: "unresolvable", code } : { reason: "unresolvable" });
    }
  }
  if (addresses.length === 0) return err({ reason: "unresolvable" });
  for (const { address } of addresses) {
    const kind = classifyAddress(address);
    if (kind === "metadata") return err({ reason: "metadata_address", address });
    if (kind === "local" && !options.allowLocalNetwork) return err({ reason: "local_address", address });
  }
  return ok(addresses.map(({ address }) => ({ address, family: isIP(address) === 6 ? 6 : 4 })));
}
