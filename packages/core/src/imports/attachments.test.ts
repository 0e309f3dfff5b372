/** Markdown attachments (issue 10 §2, attachments_import): which links are the forge's, file names, rewriting. */
import { describe, expect, it } from "vitest";
import { attachmentUrls, isForgeAttachment, rewriteAttachments, uploadFilename, uploadUrl } from "./attachments.js";
import { matchUploadRoute } from "../git-http/uploads.js";

const GH = "https://github.com";

describe("isForgeAttachment", () => {
  it("the forge's attachment paths on its web host and its attachment hosts are attachments", () => {
    expect(isForgeAttachment("https://github.com/user-attachments/assets/0c3b8a2e-1f", GH)).toBe(true);
    expect(isForgeAttachment("https://github.com/user-attachments/files/123/log.txt", GH)).toBe(true);
    expect(isForgeAttachment("https://github.com/octo/hello/assets/1/abc", GH)).toBe(true);
    expect(isForgeAttachment("https://user-images.githubusercontent.com/1/abc.png", GH)).toBe(true);
  });

  it("other pages of the forge, other hosts and non-http URLs are not", () => {
    expect(isForgeAttachment("https://github.com/octo/hello/issues/1", GH)).toBe(false);
    expect(isForgeAttachment("https://example.com/user-attachments/assets/x", GH)).toBe(false);
    expect(isForgeAttachment("http://user-images.githubusercontent.com/1/abc.png", GH)).toBe(false);
    expect(isForgeAttachment("not a url", GH)).toBe(false);
  });
});

describe("attachmentUrls and rewriteAttachments", () => {
  const text = "![a](https://github.com/user-attachments/assets/1) [b](<https://github.com/o/r/files/2/b.txt> \"t\") ![a again](https://github.com/user-attachments/assets/1) [c](https://example.com/c)";
  const isAttachment = (u: string) => isForgeAttachment(u, GH);

  it("lists each attachment URL once, in order, and only links to the forge's attachments", () => {
    expect(attachmentUrls(text, isAttachment)).toEqual(["https://github.com/user-attachments/assets/1", "https://github.com/o/r/files/2/b.txt"]);
  });

  it("rewrites every link to a stored URL, keeping the link text, angle brackets and title; others stay", () => {
    const stored = new Map([
      ["https://github.com/user-attachments/assets/1", "https://forge.test/g/p/uploads/aa/1.png"],
      ["https://github.com/o/r/files/2/b.txt", "https://forge.test/g/p/uploads/bb/b.txt"],
    ]);
    expect(rewriteAttachments(text, stored)).toBe(
      "![a](https://forge.test/g/p/uploads/aa/1.png) [b](<https://forge.test/g/p/uploads/bb/b.txt> \"t\") ![a again](https://forge.test/g/p/uploads/aa/1.png) [c](https://example.com/c)",
    );
  });
});

describe("uploadFilename and uploadUrl", () => {
  it("keeps a safe last segment, adds an extension from the content type when it has none, and never returns an empty or dotted name", () => {
    expect(uploadFilename("https://github.com/o/r/files/2/build log.txt", "text/plain")).toBe("build_log.txt");
    expect(uploadFilename("https://github.com/user-attachments/assets/0c3b", "image/png; charset=binary")).toBe("0c3b.png");
    expect(uploadFilename("https://github.com/user-attachments/assets/%E2%9C%93", null)).toBe("attachment");
    expect(uploadFilename("https://github.com/user-attachments/assets/.hidden", null)).toBe("hidden");
  });

  it("names the project's uploads URL under the base URL", () => {
    expect(uploadUrl("https://forge.test/base/", "grp/sub proj", "a".repeat(32), "x y.png")).toBe(`https://forge.test/base/grp/sub%20proj/uploads/${"a".repeat(32)}/x%20y.png`);
  });
});

describe("matchUploadRoute", () => {
  const secret = "0123456789abcdef0123456789abcdef";
  it("GET and HEAD of /<namespace…>/<project>/uploads/<secret>/<filename>", () => {
    expect(matchUploadRoute("GET", `/grp/sub/proj/uploads/${secret}/shot.png`)).toEqual({ projectPath: "grp/sub/proj", projectId: null, secret, filename: "shot.png" });
    expect(matchUploadRoute("HEAD", `/alice/notes/uploads/${secret}/a.txt`)).toEqual({ projectPath: "alice/notes", projectId: null, secret, filename: "a.txt" });
    // The upload API's `full_path` names the project by id.
    expect(matchUploadRoute("GET", `/-/project/7/uploads/${secret}/a.txt`)).toEqual({ projectPath: "", projectId: 7, secret, filename: "a.txt" });
  });

  it("not another method, a short secret, a project without namespace, a bad file name or bad encoding", () => {
    expect(matchUploadRoute("POST", `/alice/notes/uploads/${secret}/a.txt`)).toBeNull();
    expect(matchUploadRoute("GET", "/alice/notes/uploads/abc/a.txt")).toBeNull();
    expect(matchUploadRoute("GET", `/notes/uploads/${secret}/a.txt`)).toBeNull();
    expect(matchUploadRoute("GET", `/alice/notes/uploads/${secret}/..`)).toBeNull();
    expect(matchUploadRoute("GET", `/alice/%E0%A4%A/uploads/${secret}/a.txt`)).toBeNull();
    expect(matchUploadRoute("GET", `/alice/../uploads/${secret}/a.txt`)).toBeNull();
  });
});
