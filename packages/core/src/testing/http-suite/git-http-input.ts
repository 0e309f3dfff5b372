/**
 * Git over HTTP under bad input (forgekit issue 23): a path no store can hold names no project
 * (never a 500 from the store), and a request body that is not a git request is the client's
 * error (400), logged without echoing the client's bytes.
 */
import { gzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import type { LogLevel } from "../../ports/runtime.js";
import { createTestForgekit, type TestForgekit } from "../fixtures.js";
import type { HttpHarness, HttpSuite } from "../http-harness.js";

const basic = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;
const NOT_FOUND_TEXT = "The project you were looking for could not be found or you don't have permission to view it.\n";

/** HTTP suite: git paths holding a NUL byte, and malformed git request bodies. */
export const gitHttpInputSuite: HttpSuite = (h: HttpHarness) => {
  describe("git over HTTP: bad input", () => {
    let t: TestForgekit;
    const logged: { level: LogLevel; event: string; fields: string }[] = [];
    const alice = () => basic("alice", t.tokens.alice);

    beforeAll(async () => {
      t = await createTestForgekit({ logger: { log: (level, event, fields) => logged.push({ level, event, fields: JSON.stringify(fields ?? {}) }) } });
      await h.serve(t.fk);
    });

    describe("a NUL byte in the git path names no project", () => {
      const targets = (path: string) => [
        ["GET", `/${path}%00.git/info/refs?service=git-upload-pack`],
        ["GET", `/${path.replace("/", "%00/")}.git/info/refs?service=git-upload-pack`],
        ["GET", `/${path}.git%00/info/refs?service=git-receive-pack`],
        ["POST", `/${path}%00.git/git-upload-pack`],
        ["POST", `/${path}%00/git-receive-pack`],
      ] as const;
      const post = { "content-type": "application/x-git-upload-pack-request" };

      it("without credentials → 401 with the Basic challenge, as for any unknown project", async () => {
        for (const [method, target] of targets(t.projects.personal.fullPath)) {
          const r = await h.raw(method, target, method === "POST" ? { headers: post, body: "0000" } : {});
          expect([target, r.status, r.headers["www-authenticate"]]).toEqual([target, 401, 'Basic realm="GitLab"']);
        }
      });

      it("with credentials → 404 with the reference's text; nothing is logged as an error", async () => {
        const before = logged.length;
        for (const [method, target] of targets(t.projects.personal.fullPath)) {
          const r = await h.raw(method, target, { headers: { authorization: alice(), ...(method === "POST" ? post : {}) }, ...(method === "POST" ? { body: "0000" } : {}) });
          expect([target, r.status, r.text]).toEqual([target, 404, NOT_FOUND_TEXT]);
        }
        expect(logged.slice(before).filter((l) => l.level === "error")).toEqual([]);
      });

      it("a NUL byte in the Basic username or password names nobody → 401", async () => {
        const target = `/${t.projects.personal.fullPath}.git/info/refs?service=git-upload-pack`;
        for (const authorization of [basic("ali\u0000ce", t.tokens.alice), basic("alice", `${t.tokens.alice}\u0000`), basic("alice", "alice-pass\u0000word")]) {
          const r = await h.raw("GET", target, { headers: { authorization } });
          expect([authorization, r.status]).toEqual([authorization, 401]);
        }
      });
    });

    describe("POST git-upload-pack / git-receive-pack with a body that is not a git request", () => {
      const endpoint = (service: string) => `/${t.projects.personal.fullPath}.git/${service}`;
      const headers = (service: string, extra: Record<string, string> = {}) => ({ authorization: alice(), "content-type": `application/x-${service}-request`, ...extra });
      const echoes = (from: number, bytes: string) => logged.slice(from).filter((l) => l.fields.includes(bytes) || l.event.includes(bytes));

      beforeAll(async () => {
        // alice's project has its (empty) repository: git serves it.
        const r = await h.request("GET", `/${t.projects.personal.fullPath}.git/info/refs`, { query: { service: "git-upload-pack" }, headers: { authorization: alice() } });
        expect(r.status).toBe(200);
      });

      for (const service of ["git-upload-pack", "git-receive-pack"]) {
        it(`${service}: 64 MiB of "A" → 400; the warning does not echo the bytes`, async () => {
          const from = logged.length;
          const r = await h.raw("POST", endpoint(service), { headers: headers(service), body: Buffer.alloc(64 * 1024 * 1024, "A") });
          expect(r.status).toBe(400);
          expect(echoes(from, "AAAAAAAAAAAAAAAA")).toEqual([]);
          expect(logged.slice(from).filter((l) => l.level === "error")).toEqual([]);
        }, 60_000);

        it(`${service}: a truncated pkt-line, or an empty body → 400`, async () => {
          for (const body of ["0032want ", "00", ""]) {
            const r = await h.raw("POST", endpoint(service), { headers: headers(service), body });
            expect([body, r.status]).toEqual([body, 400]);
          }
        });

        it(`${service}: Content-Encoding: gzip on a body that is not gzip → 400`, async () => {
          const from = logged.length;
          const r = await h.raw("POST", endpoint(service), { headers: headers(service, { "content-encoding": "gzip" }), body: "0032want secret-looking-bytes-XYZZY\n0000" });
          expect(r.status).toBe(400);
          expect(echoes(from, "XYZZY")).toEqual([]);
          // A gzip body holding garbage is the same client error.
          const inner = await h.raw("POST", endpoint(service), { headers: headers(service, { "content-encoding": "gzip" }), body: gzipSync(Buffer.from("zzzz-XYZZY")) });
          expect(inner.status).toBe(400);
          expect(echoes(from, "XYZZY")).toEqual([]);
        });
      }
    });
  });
};
