/**
 * The consent page in a real browser (issue 3 "Tests"): Debian's chromium, driven by
 * playwright-core, against the quick-start example — sign in through the host's login form,
 * approve and land on the client's redirect with the code and state; deny; a CSRF-less POST is
 * refused; a screenshot of the consent page is taken and checked for readability, and copied to
 * docs/images/oauth-consent-page.png when it differs from the committed one. Skipped, with a
 * printed reason, when /usr/bin/chromium is absent (CI installs it: .ci/run).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startExpressExample, type RunningExample } from "./app.js";

const CHROMIUM = "/usr/bin/chromium";
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const SCREENSHOT = join(import.meta.dirname, "..", "..", "..", "test-results", "oauth-consent-page.png");
/** The README's picture of the consent page: refreshed from the test's screenshot whenever the page looks different (commit it then). */
const DOCS_SCREENSHOT = join(import.meta.dirname, "..", "..", "..", "docs", "images", "oauth-consent-page.png");

interface ConsentStyle {
  bodyFont: string;
  text: string;
  background: string;
  approveText: string;
  approveBackground: string;
  approveVisible: boolean;
}

/** Runs in the page (a string: this package type-checks without the DOM library). */
const STYLE_PROBE = `(() => {
  const main = document.querySelector("main");
  const approve = document.querySelector('button[value="approve"]');
  const rect = approve.getBoundingClientRect();
  return {
    bodyFont: getComputedStyle(document.body).fontSize,
    text: getComputedStyle(main).color,
    background: getComputedStyle(main).backgroundColor,
    approveText: getComputedStyle(approve).color,
    approveBackground: getComputedStyle(approve).backgroundColor,
    approveVisible: rect.width > 40 && rect.height > 20 && rect.bottom <= window.innerHeight,
  };
})()`;

/** WCAG 2 contrast ratio of two `rgb(r, g, b)` colours. */
function contrast(a: string, b: string): number {
  const luminance = (css: string) => {
    const [r, g, bl] = (css.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

if (!existsSync(CHROMIUM)) {
  console.log(`examples/express-sqlite: ${CHROMIUM} not found — the consent-page browser test is skipped (apt-get install chromium)`);
  it.skip(`consent page in chromium (needs ${CHROMIUM})`, () => {});
} else {
  describe("consent page in chromium (playwright-core)", () => {
    const dir = mkdtempSync(join(tmpdir(), "forgekit-consent-"));
    let example: RunningExample;
    let browser: BrowserContext;
    let callback: Server;
    let callbackUrl = "";
    let web: { clientId: string };

    beforeAll(async () => {
      example = await startExpressExample({ port: 0, database: "forgekit.db", cwd: dir });
      const app = example.seed.oauth.apps.find((a) => a.confidential);
      web = { clientId: app!.clientId };
      // The client's redirect target: a loopback URI (any port matches the registered http://127.0.0.1/callback).
      callback = createServer((_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("client received the redirect\n"));
      await new Promise<void>((resolve) => callback.listen(0, "127.0.0.1", resolve));
      callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
      // A fresh profile directory per run (playwright passes it as --user-data-dir).
      browser = await chromium.launchPersistentContext(join(dir, "profile"), { executablePath: CHROMIUM, args: ARGS });
    }, 240_000);

    afterAll(async () => {
      await browser?.close();
      await new Promise((resolve) => callback?.close(resolve));
      await example?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const authorizeUrl = (state: string) =>
      `${example.baseUrl}/oauth/authorize?${new URLSearchParams({ client_id: web.clientId, redirect_uri: callbackUrl, response_type: "code", scope: "read_user openid", state }).toString()}`;

    /** A new tab, signed out, then signed in as alice through the example's login form, on the consent page. */
    async function signInToConsent(state: string): Promise<Page> {
      await browser.clearCookies();
      const page = await browser.newPage();
      await page.goto(authorizeUrl(state));
      expect(new URL(page.url()).pathname).toBe("/users/sign_in");
      await page.getByLabel("Username").fill("alice");
      await page.getByLabel("Password").fill("alice-demo-password");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("heading", { name: "Authorize Demo web app?" }).waitFor();
      return page;
    }

    it("signs in through the host's form, shows a readable consent page, and Approve lands on the redirect with code and state", async () => {
      const state = "st-😀 +/=&";
      const page = await signInToConsent(state);
      expect(await page.getByText("Read your profile").isVisible()).toBe(true);
      expect(await page.getByText("Confirm who you are").isVisible()).toBe(true);
      mkdirSync(join(SCREENSHOT, ".."), { recursive: true });
      const png = await page.screenshot({ path: SCREENSHOT, fullPage: true });
      expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
      expect(png.length).toBeGreaterThan(10_000);
      const style = await page.evaluate<ConsentStyle>(STYLE_PROBE);
      expect(parseFloat(style.bodyFont)).toBeGreaterThanOrEqual(16);
      expect(contrast(style.text, style.background)).toBeGreaterThanOrEqual(7);
      expect(contrast(style.approveText, style.approveBackground)).toBeGreaterThanOrEqual(4.5);
      expect(style.approveVisible).toBe(true);
      // The docs' copy: the client's random port shown as a fixed one, so the picture changes only when the page does.
      await page.evaluate(`document.querySelectorAll("code").forEach((c) => { if (/^127\\.0\\.0\\.1:\\d+$/.test(c.textContent)) c.textContent = "127.0.0.1:8080"; })`);
      const docsPng = await page.screenshot({ fullPage: true });
      if (!existsSync(DOCS_SCREENSHOT) || !readFileSync(DOCS_SCREENSHOT).equals(docsPng)) {
        mkdirSync(join(DOCS_SCREENSHOT, ".."), { recursive: true });
        writeFileSync(DOCS_SCREENSHOT, docsPng);
      }

      await page.getByRole("button", { name: "Approve" }).click();
      await page.waitForURL((url) => url.origin === new URL(callbackUrl).origin);
      const landed = new URL(page.url());
      expect(`${landed.origin}${landed.pathname}`).toBe(callbackUrl);
      expect(landed.searchParams.get("code")).toMatch(/^fkoc_[\w-]{43}$/);
      expect(landed.searchParams.get("state")).toBe(state);
      expect(await page.textContent("body")).toContain("client received the redirect");
      await page.close();
    }, 240_000);

    it("Deny lands on the redirect with error=access_denied and the state", async () => {
      const page = await signInToConsent("deny-state");
      await page.getByRole("button", { name: "Deny" }).click();
      await page.waitForURL((url) => url.origin === new URL(callbackUrl).origin);
      const landed = new URL(page.url());
      expect(landed.searchParams.get("error")).toBe("access_denied");
      expect(landed.searchParams.get("state")).toBe("deny-state");
      expect(landed.searchParams.has("code")).toBe(false);
      await page.close();
    }, 240_000);

    it("a POST without the CSRF token, sent with the signed-in session, is refused", async () => {
      const page = await signInToConsent("csrf-state");
      await page.evaluate(`document.querySelector('input[name="consent_token"]').remove()`);
      await page.getByRole("button", { name: "Approve" }).click();
      await page.getByRole("heading", { name: "An error has occurred" }).waitFor();
      expect(new URL(page.url()).origin).toBe(new URL(example.baseUrl).origin);
      expect(await page.textContent("body")).toContain("did not come from this site");
      await page.close();
    }, 240_000);
  });
}
