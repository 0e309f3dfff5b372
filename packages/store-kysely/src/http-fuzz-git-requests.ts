/**
 * Test-only: random git smart-HTTP requests for the HTTP fuzz test (http-fuzz.test.ts): the three
 * git endpoints and the uploads route below project paths that name seeded projects, nothing, or
 * text no store can hold (NUL, malformed escapes); Basic credentials from seeded tokens, garbage
 * and NUL bytes; and bodies that are pkt-lines, truncated pkt-lines, random bytes, a large run of
 * one byte, gzip of any of them, or a gzip header on something else.
 */
import { Readable } from "node:stream";
import { gzipSync } from "node:zlib";
import type { GitHttpRequest } from "@forgekit/core";
import fc from "fast-check";
import { NASTY, percentEncode, RAW_SEGMENTS, type FuzzWorld } from "./http-fuzz-requests.js";

/** A git request (its body is made fresh for each send), plus how to print it when it fails. */
export interface FuzzGitRequest {
  request(): GitHttpRequest;
  describe(): string;
}

const ENDPOINTS = [
  ["GET", "info/refs"],
  ["HEAD", "info/refs"],
  ["POST", "git-upload-pack"],
  ["POST", "git-receive-pack"],
  ["GET", "uploads/0123456789abcdef0123456789abcdef/a.png"],
] as const;

/** One path segment as a client might send it. */
function segment(world: FuzzWorld): fc.Arbitrary<string> {
  const names = world.names.flatMap((n) => n.split("/"));
  return fc.oneof(
    { arbitrary: fc.constantFrom(...names), weight: 6 },
    { arbitrary: fc.constantFrom(...NASTY).map(percentEncode), weight: 3 },
    { arbitrary: fc.constantFrom(...RAW_SEGMENTS), weight: 2 },
    fc.string({ maxLength: 8 }).map(percentEncode),
  );
}

/** A project path: a seeded one (most often) or segments, with or without `.git` and with anything appended. */
function projectPath(world: FuzzWorld): fc.Arbitrary<string> {
  return fc.tuple(
    fc.oneof({ arbitrary: fc.constantFrom(...world.names.filter((n) => n.includes("/"))).map((n) => n.split("/").map(percentEncode).join("/")), weight: 4 }, fc.array(segment(world), { minLength: 2, maxLength: 4 }).map((s) => s.join("/"))),
    fc.oneof({ arbitrary: fc.constant(""), weight: 4 }, fc.constantFrom("%00", "%2e", "a%00b", "%zz")),
    fc.oneof({ arbitrary: fc.constantFrom(".git", ""), weight: 4 }, fc.constant(".git%00")),
  ).map(([path, tail, suffix]) => `/${path}${tail}${suffix}`);
}

const pktLine = (text: string) => `${(Buffer.byteLength(text) + 4).toString(16).padStart(4, "0")}${text}`;
const SHA = "0123456789abcdef0123456789abcdef01234567";

/** A request body: pkt-lines git accepts or refuses, truncated ones, random bytes, a long run of one byte; maybe gzip'd. */
function body(): fc.Arbitrary<{ bytes: Buffer; gzip: boolean; label: string }> {
  const plain = fc.oneof(
    fc.constantFrom("", "0000", "00", "0032want ", `${pktLine(`want ${SHA}\n`)}00000009done\n`, pktLine("command=ls-refs\n") + "0000", `${pktLine(`${"0".repeat(40)} ${SHA} refs/heads/main\0report-status\n`)}0000PACK`, "zzzz", "\u0000\u0000\u0000\u0000").map((s) => ({ bytes: Buffer.from(s, "latin1"), label: JSON.stringify(s) })),
    fc.uint8Array({ maxLength: 64 }).map((b) => ({ bytes: Buffer.from(b), label: `bytes(${b.length})` })),
    fc.constantFrom("A", "0", "\u0000").map((c) => ({ bytes: Buffer.alloc(1024 * 1024, c), label: `1 MiB of ${JSON.stringify(c)}` })),
  );
  return fc.tuple(plain, fc.constantFrom("identity", "identity", "gzip", "gzip-header")).map(([b, mode]) => ({
    bytes: mode === "gzip" ? gzipSync(b.bytes) : b.bytes,
    gzip: mode !== "identity",
    label: `${mode === "identity" ? "" : `${mode} `}${b.label}`,
  }));
}

/** Basic credentials: a seeded token, garbage, NUL bytes, or none. */
function authorization(world: FuzzWorld): fc.Arbitrary<string | undefined> {
  const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`, "utf8").toString("base64")}`;
  const user = fc.oneof(fc.constantFrom(...world.names.filter((n) => !n.includes("/"))), fc.constantFrom("oauth2", "", "a\u0000b", "\u0000"));
  const password = fc.oneof({ arbitrary: fc.constantFrom(...world.tokens), weight: 3 }, fc.constantFrom("", "nope", "\u0000", "glpat-\u0000"), fc.string({ maxLength: 12 }));
  // The administrator's token most often, so that requests get past the check to git.
  const admin = basic("root", world.tokens[0] ?? "");
  return fc.oneof({ arbitrary: fc.constant(admin), weight: 5 }, fc.constant(undefined), { arbitrary: fc.tuple(user, password).map(([u, p]) => basic(u, p)), weight: 3 }, fc.constantFrom("Basic %%%", "Bearer x", "Basic AAAA"));
}

/** Random git requests over the seeded world. */
export function fuzzGitRequests(world: FuzzWorld): fc.Arbitrary<FuzzGitRequest> {
  return fc.record({
    endpoint: fc.constantFrom(...ENDPOINTS).map(([method, tail]): [string, string] => [method, tail]),
    path: projectPath(world),
    query: fc.constantFrom("service=git-upload-pack", "service=git-receive-pack", "", "service=%00", "service=git-upload-archive"),
    authorization: authorization(world),
    contentType: fc.constantFrom("request", "request", "request", "text/plain", ""),
    protocol: fc.constantFrom(undefined, "version=2", "version=\u0000"),
    body: body(),
  }).map(({ endpoint: [method, tail], path, query, authorization: auth, contentType, protocol, body: b }): FuzzGitRequest => {
    const service = tail.startsWith("git-") ? tail : "git-upload-pack";
    const headers: Record<string, string | undefined> = {
      ...(auth === undefined ? {} : { authorization: auth }),
      ...(protocol === undefined ? {} : { "git-protocol": protocol }),
      ...(method !== "POST" || contentType === "" ? {} : { "content-type": contentType === "request" ? `application/x-${service}-request` : contentType }),
      ...(method === "POST" && b.gzip ? { "content-encoding": "gzip" } : {}),
    };
    const full = `${path}/${tail}`;
    return {
      request: () => ({ method, path: full, rawQuery: query, headers, body: Readable.from(method === "POST" ? [b.bytes] : []) }),
      describe: () => `${method} ${full}?${query} headers=${JSON.stringify(headers)}${method === "POST" ? ` body=${b.label}` : ""}`,
    };
  });
}
