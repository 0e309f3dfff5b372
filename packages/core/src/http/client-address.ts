/**
 * The client's address behind reverse proxies (issue 22), as express's `trust proxy` decides it:
 * the peer address is the last hop; each trusted hop's `X-Forwarded-For` entry is believed, from
 * the right, until an untrusted hop. Off by default: a client that is not behind a proxy could
 * write any `X-Forwarded-For` it likes, and the per-address rate limits would count nothing.
 */
import { BlockList, isIP } from "node:net";

/**
 * Which proxies to believe (`trustProxy` in the configuration):
 * - `false` (default): the peer address, `X-Forwarded-For` ignored;
 * - a number n: n hops in front of forgekit are proxies (1 = one HAProxy or nginx) — the client is
 *   the n-th address from the right of peer + `X-Forwarded-For`;
 * - a list of addresses and CIDR ranges (`"10.0.0.0/8"`, `"::1"`): hops whose address is listed are
 *   proxies;
 * - `true`: every hop is a proxy (the leftmost `X-Forwarded-For` entry; only when every path to
 *   forgekit passes a proxy that sets the header).
 */
export type TrustProxy = boolean | number | string[];

/** A predicate over hop addresses: whether hop `index` (0 = the peer) with `address` is a trusted proxy. */
export type TrustHop = (address: string, index: number) => boolean;

const unmapped = (address: string) => (address.toLowerCase().startsWith("::ffff:") && isIP(address.slice(7)) === 4 ? address.slice(7) : address);

/** Compiles a `TrustProxy` setting (a bad address or range in a list throws: checked at boot). */
export function trustHop(setting: boolean | number | readonly string[]): TrustHop {
  if (setting === false) return () => false;
  if (setting === true) return () => true;
  if (typeof setting === "number") return (_address, index) => index < setting;
  const list = new BlockList();
  for (const entry of setting) {
    const [address = "", bits] = entry.split("/");
    const family = isIP(address);
    if (family === 0) throw new Error(`trustProxy: "${entry}" is not an IP address or CIDR range`);
    const type = family === 4 ? "ipv4" : "ipv6";
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  return (address) => {
    const plain = unmapped(address);
    const family = isIP(plain);
    return family !== 0 && list.check(plain, family === 4 ? "ipv4" : "ipv6");
  };
}

/**
 * The client address of a request whose peer is `peer` and whose `X-Forwarded-For` is `forwarded`:
 * the peer when it is not a trusted proxy, else the next address to the left, and so on. Entries
 * that are not addresses end the walk (a garbled header never names the client).
 */
export function clientAddress(peer: string | undefined, forwarded: string | undefined, trust: TrustHop): string | undefined {
  if (peer === undefined || forwarded === undefined || forwarded === "") return peer;
  const hops = forwarded
    .split(",")
    .map((entry) => entry.trim())
    .reverse();
  let client = peer;
  for (let index = 0; index < hops.length; index++) {
    if (!trust(client, index)) break;
    const next = hops[index]!;
    if (isIP(next) === 0) break;
    client = next;
  }
  return client;
}
