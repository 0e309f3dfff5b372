/**
 * Project Markdown uploads (reference "Project markdown uploads" API): `POST /projects/:id/uploads`
 * with a multipart `file`, the answer `{id, alt, url, full_path, markdown}`, the file served back
 * at `full_path` and below the project's path with the project's read rules, the size limit, and
 * the Maintainer list and delete.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { AccessLevel, type Project } from "../../accounts/types.js";
import { createTestForgekit, type TestForgekit } from "../fixtures.js";
import type { HttpHarness, HttpSuite } from "../http-harness.js";

const BOUNDARY = "forgekitBoundary42";
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 3]);

/** A multipart body with one file part (and a text field, as python-gitlab sends none but clients may). */
function multipart(filename: string, bytes: Uint8Array, field = "file"): { body: Uint8Array; headers: Record<string, string> } {
  const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const body = Buffer.concat([Buffer.from(head), Buffer.from(bytes), Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]);
  return { body, headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` } };
}

export const uploadsSuite: HttpSuite = (h: HttpHarness) => {
  describe("POST /projects/:id/uploads", () => {
    let t: TestForgekit;
    let pub: Project;
    const post = (project: Project, token: string | undefined, filename: string, bytes: Uint8Array, field?: string) => {
      const { body, headers } = multipart(filename, bytes, field);
      return h.request("POST", `/api/v4/projects/${project.id}/uploads`, { body, headers: { ...headers, ...(token === undefined ? {} : { "private-token": token }) } });
    };

    beforeAll(async () => {
      t = await createTestForgekit({ limits: { uploadBytes: 64 } });
      await h.serve(t.fk);
      pub = await t.createProject({ namespaceId: t.users.alice.namespaceId ?? -1, path: "pub", name: "pub", visibility: "public", creatorId: t.users.alice.id });
      await t.addMember({ project: pub }, t.users.bob, AccessLevel.Reporter);
    });

    it("201 with id, alt, url, full_path and markdown; the file is served at full_path and below the project path", async () => {
      const r = await post(pub, t.tokens.bob, "my shot.png", PNG);
      expect(r.status).toBe(201);
      const body = r.json as { id: number; url: string; full_path: string };
      const secret = /^\/uploads\/([0-9a-f]{32})\/my_shot\.png$/.exec(body.url)?.[1];
      expect(secret).toBeDefined();
      expect(r.json).toEqual({ id: body.id, alt: "my_shot", url: `/uploads/${secret}/my_shot.png`, full_path: `/-/project/${pub.id}/uploads/${secret}/my_shot.png`, markdown: `![my_shot](/uploads/${secret}/my_shot.png)` });
      for (const path of [body.full_path, `/alice/pub${body.url}`]) {
        const served = await h.request("GET", path);
        expect(served.status).toBe(200);
        expect(served.headers["content-type"]).toBe("image/png");
        expect(served.headers["content-length"]).toBe(String(PNG.length));
      }
      expect((await h.request("GET", `/-/project/${pub.id}/uploads/${"0".repeat(32)}/my_shot.png`)).status).toBe(404);
      // An unknown project answers as an unknown project path does (git-http: credentials asked, nothing told).
      expect((await h.request("GET", `/-/project/999999/uploads/${secret}/my_shot.png`)).status).toBe((await h.request("GET", `/nobody/nothing/uploads/${secret}/my_shot.png`)).status);
    });

    it("a non-image is a link in markdown; a private project's file is not served anonymously", async () => {
      const r = await post(t.projects.privateProject, t.tokens.alice, "notes.txt", Buffer.from("text"));
      expect(r.status).toBe(201);
      const body = r.json as { markdown: string; url: string; full_path: string };
      expect(body.markdown).toBe(`[notes.txt](${body.url})`);
      expect((await h.request("GET", body.full_path)).status).toBe(401);
    });

    it("no file part → 400 file not given; anonymous → 401; a file above limits.uploadBytes → 413", async () => {
      expect(await post(pub, t.tokens.alice, "a.png", PNG, "other")).toMatchObject({ status: 400, json: { message: '400 (Bad request) "file" not given' } });
      expect((await post(pub, undefined, "a.png", PNG)).status).toBe(401);
      expect((await post(pub, t.tokens.alice, "big.bin", new Uint8Array(65))).status).toBe(413);
    });

    it("GET lists the uploads for Maintainers (Reporter 403); DELETE removes the record and the file", async () => {
      const made = (await post(pub, t.tokens.alice, "gone.png", PNG)).json as { id: number; full_path: string };
      expect((await h.request("GET", `/api/v4/projects/${pub.id}/uploads`, { headers: { "private-token": t.tokens.bob } })).status).toBe(403);
      const list = await h.request("GET", `/api/v4/projects/${pub.id}/uploads`, { headers: { "private-token": t.tokens.alice } });
      expect(list.status).toBe(200);
      expect(list.json).toContainEqual({ id: made.id, size: PNG.length, filename: "gone.png", created_at: expect.any(String), uploaded_by: { id: t.users.alice.id, username: "alice", name: t.users.alice.name } });
      expect((await h.request("DELETE", `/api/v4/projects/${pub.id}/uploads/${made.id}`, { headers: { "private-token": t.tokens.alice } })).status).toBe(204);
      expect((await h.request("GET", made.full_path)).status).toBe(404);
      expect((await h.request("DELETE", `/api/v4/projects/${pub.id}/uploads/${made.id}`, { headers: { "private-token": t.tokens.alice } })).status).toBe(404);
    });
  });
};
