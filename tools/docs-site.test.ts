/**
 * The documentation site (issue 24 item 6): it builds (`vitepress build docs`, into a temporary
 * folder), every page of the sidebar is in the output, and — in Debian's chromium, driven by
 * playwright-core — every internal link of every page reached from the home page resolves (the
 * page exists, and so does the heading a `#fragment` names), and the API reference page renders
 * the operations of docs/openapi.json with Scalar. The browser part is skipped, with a printed
 * reason, when /usr/bin/chromium is absent (CI installs it: .ci/run).
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { promisify } from "node:util";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..");
const CHROMIUM = "/usr/bin/chromium";
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const TYPES: Record<string, string> = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml", ".png": "image/png", ".json": "application/json", ".woff2": "font/woff2" };

let out = "";
let server: Server | undefined;
let base = "";

/** Serves the built site like a static host: the file, or 404. */
function serve(dir: string): Promise<Server> {
  const s = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname));
    const file = join(dir, path.endsWith("/") ? `${path}index.html` : path);
    if (!file.startsWith(dir) || !existsSync(file)) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(readFileSync(file));
  });
  return new Promise((resolve) => s.listen(0, "127.0.0.1", () => resolve(s)));
}

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), "forgekit-docs-site-"));
  const vitepress = join(ROOT, "node_modules", "vitepress", "bin", "vitepress.js");
  await promisify(execFile)(process.execPath, [vitepress, "build", "docs", "--outDir", out], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
  server = await serve(out);
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 900_000);

afterAll(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  rmSync(out, { recursive: true, force: true });
});

describe("docs site build (vitepress build docs)", () => {
  it("has a page for every sidebar entry, the API reference with Scalar's bundle and the OpenAPI document", () => {
    const config = readFileSync(join(ROOT, "docs", ".vitepress", "config.mts"), "utf8");
    const links = [...config.matchAll(/link: "(\/[^"]*)"/g)].map((m) => m[1] ?? "");
    expect(links.length).toBeGreaterThan(20);
    for (const link of links) expect(existsSync(join(out, `${link}.html`)), `${link}.html`).toBe(true);
    expect(existsSync(join(out, "scalar", "standalone.js"))).toBe(true);
    // docs/openapi.json is emitted as an asset (the API reference page loads it), byte for byte.
    const spec = readdirSync(join(out, "assets")).filter((f) => /^openapi\..+\.json$/.test(f));
    expect(spec).toHaveLength(1);
    expect(readFileSync(join(out, "assets", spec[0] ?? ""), "utf8")).toBe(readFileSync(join(ROOT, "docs", "openapi.json"), "utf8"));
  });
});

if (!existsSync(CHROMIUM)) {
  console.log(`tools/docs-site: ${CHROMIUM} not found — the docs site browser test is skipped (apt-get install chromium)`);
  describe.skip(`docs site in chromium (needs ${CHROMIUM})`, () => {
    it("crawls every internal link and renders the API reference", () => {});
  });
} else {
  describe("docs site in chromium (playwright-core)", () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
    });

    it("every internal link from the home page on resolves: the page exists, and so does the heading its #fragment names", async () => {
      const page = await browser.newPage();
      const seen = new Set<string>();
      const queue = ["/"];
      const broken: string[] = [];
      const anchors: { from: string; url: string }[] = [];
      while (queue.length > 0) {
        const path = queue.shift() ?? "/";
        if (seen.has(path)) continue;
        seen.add(path);
        const response = await page.goto(base + path, { waitUntil: "load" });
        if (response?.status() !== 200) {
          broken.push(`${path}: ${response?.status() ?? "no response"}`);
          continue;
        }
        if (!/\.html$|\/$/.test(path)) continue; // an image or a file: it exists, nothing to crawl
        const hrefs = await page.$$eval("a[href]", (as) => as.map((a) => (a as unknown as { href: string }).href));
        for (const href of hrefs) {
          const url = new URL(href);
          if (url.origin !== base) continue;
          // The API reference's own #links are Scalar's client-side routes (its sections render lazily): the test below checks that page.
          if (url.hash !== "" && url.hash !== "#" && url.pathname !== "/api.html") anchors.push({ from: path, url: url.pathname + url.hash });
          queue.push(url.pathname);
        }
        const images = await page.$$eval("img[src]", (imgs) => imgs.map((i) => (i as unknown as { src: string }).src));
        for (const src of images) if (new URL(src).origin === base) queue.push(new URL(src).pathname);
      }
      // Each target page once: the ids it has, then every fragment that points into it.
      for (const path of new Set(anchors.map((a) => a.url.split("#")[0] ?? ""))) {
        await page.goto(base + path, { waitUntil: "load" });
        const ids = new Set(await page.$$eval("[id]", (els) => els.map((e) => (e as unknown as { id: string }).id)));
        for (const { from, url } of anchors.filter((a) => a.url.startsWith(`${path}#`))) {
          if (!ids.has(decodeURIComponent(url.slice(path.length + 1)))) broken.push(`${from} → ${url}: no element with that id`);
        }
      }
      await page.close();
      expect(broken).toEqual([]);
      expect(seen.size).toBeGreaterThan(30);
    }, 600_000);

    it("the API reference page renders the operations of docs/openapi.json with Scalar", async () => {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      await page.goto(`${base}/api.html`, { waitUntil: "load" });
      const root = page.locator(".forgekit-api-reference");
      await root.getByText("forgekit REST API").first().waitFor({ timeout: 120_000 });
      // Operation summaries from the route table, in two different tags.
      await root.getByText("List users", { exact: true }).first().waitFor({ timeout: 120_000 });
      const text = await root.innerText();
      expect(text).toContain("/api/v4");
      expect(await page.getByText("Ask AI").count(), "Scalar's hosted agent is turned off").toBe(0);
      expect(await page.locator(".forgekit-api-reference-error").count()).toBe(0);
      expect(errors).toEqual([]);
      await page.close();
    }, 300_000);
  });
}
