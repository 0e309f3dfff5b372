import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isBlockedUrlError } from "./guarded-fetch.js";
import { checkUrl, classifyAddress, displayUrl, type HostLookup } from "./url-guard.js";
import { guardedFetch } from "./guarded-fetch.js";

/** A resolver for tests: fixed names → addresses. */
const fakeLookup =
  (table: Record<string, string[]>): HostLookup =>
  (hostname) => {
    const addresses = table[hostname];
    if (addresses === undefined) return Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }));
    return Promise.resolve(addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })));
  };

const lookup = fakeLookup({
  "public.test": ["93.184.216.34"],
  "mixed.test": ["93.184.216.34", "10.1.2.3"],
  "private.test": ["192.168.1.10"],
  "v6private.test": ["fd12::1"],
  "mapped.test": ["::ffff:127.0.0.1"],
  "metadata.test": ["169.254.169.254"],
  "stand-in.test": ["127.0.0.1"],
});

describe("classifyAddress", () => {
  it.each([
    ["127.0.0.1", "local"],
    ["127.8.9.10", "local"],
    ["10.0.0.1", "local"],
    ["172.16.0.1", "local"],
    ["172.31.255.255", "local"],
    ["192.168.0.1", "local"],
    ["169.254.1.1", "local"],
    ["100.64.0.1", "local"],
    ["100.127.255.255", "local"],
    ["0.0.0.0", "local"],
    ["224.0.0.1", "local"],
    ["255.255.255.255", "local"],
    ["169.254.169.254", "metadata"],
    ["8.8.8.8", "public"],
    ["172.32.0.1", "public"],
    ["100.128.0.1", "public"],
    ["::1", "local"],
    ["::", "local"],
    ["fc00::1", "local"],
    ["fdff:ffff::1", "local"],
    ["fe80::1", "local"],
    ["fe80::1%eth0", "local"],
    ["ff02::1", "local"],
    ["fd00:ec2::254", "metadata"],
    ["::ffff:127.0.0.1", "local"],
    ["::ffff:7f00:1", "local"],
    ["::ffff:10.0.0.1", "local"],
    ["::ffff:169.254.169.254", "metadata"],
    ["::ffff:8.8.8.8", "public"],
    ["::127.0.0.1", "local"],
    ["64:ff9b::10.0.0.1", "local"],
    ["2002:c0a8:0101::1", "local"],
    ["2002:0808:0808::1", "public"],
    ["2606:4700:4700::1111", "public"],
    ["[::1]", "local"],
    ["not-an-address", "local"],
  ])("%s is %s", (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });
});

describe("checkUrl", () => {
  const refused = async (url: string, allowLocalNetwork = false) => {
    const result = await checkUrl(url, { allowLocalNetwork, lookup });
    return result.isErr() ? result.error : undefined;
  };

  it("accepts an http(s) URL whose every address is public", async () => {
    expect((await checkUrl("https://public.test/api", { allowLocalNetwork: false, lookup }))._unsafeUnwrap().href).toBe("https://public.test/api");
  });

  it("refuses schemes other than http(s) with the reference's message", async () => {
    expect(await refused("ftp://public.test/")).toEqual({ reason: "scheme", message: "Invalid URL: ftp://public.test/" });
    expect((await refused("file:///etc/passwd"))?.reason).toBe("scheme");
    expect((await refused("javascript:alert(1)"))?.reason).toBe("scheme");
  });

  it("refuses what is not a URL", async () => {
    expect(await refused("not a url")).toEqual({ reason: "malformed", message: "Invalid URL: not a url" });
  });

  it("refuses IPv4 loopback, private, link-local and CGNAT literals, in any spelling", async () => {
    for (const url of ["http://127.0.0.1/", "http://10.0.0.5:8080/", "http://192.168.0.1/", "http://169.254.3.4/", "http://100.64.1.1/", "http://0.0.0.0/", "http://2130706433/", "http://0x7f.1/", "http://017700000001/"]) {
      expect((await refused(url))?.reason, url).toBe("local_address");
    }
  });

  it("refuses IPv6 loopback, unique-local, link-local and IPv4-mapped literals", async () => {
    for (const url of ["http://[::1]/", "http://[fd00::1]/", "http://[fe80::1]/", "http://[::ffff:127.0.0.1]/", "http://[::ffff:a00:1]/", "http://[::]/"]) {
      expect((await refused(url))?.reason, url).toBe("local_address");
    }
  });

  it("refuses names that resolve to a private address, checking every address", async () => {
    expect(await refused("https://private.test/")).toEqual({ reason: "local_address", address: "192.168.1.10", message: "Invalid URL: https://private.test/" });
    expect((await refused("https://mixed.test/"))?.address).toBe("10.1.2.3");
    expect((await refused("https://v6private.test/"))?.reason).toBe("local_address");
    expect((await refused("https://mapped.test/"))?.reason).toBe("local_address");
  });

  it("refuses names that do not resolve", async () => {
    expect((await refused("https://nowhere.test/"))?.reason).toBe("unresolvable");
  });

  it("allows local addresses with allowLocalNetwork, but never metadata addresses", async () => {
    expect(await refused("http://127.0.0.1:3000/", true)).toBeUndefined();
    expect(await refused("https://private.test/", true)).toBeUndefined();
    expect((await refused("http://169.254.169.254/latest/meta-data/", true))?.reason).toBe("metadata_address");
    expect((await refused("http://[fd00:ec2::254]/", true))?.reason).toBe("metadata_address");
    expect((await refused("https://metadata.test/", true))?.reason).toBe("metadata_address");
  });

  it("never echoes credentials of the URL in the message", async () => {
    const refusal = await refused("http://user:s3cret@127.0.0.1/");
    expect(refusal?.message).toBe("Invalid URL: http://127.0.0.1/");
    expect(displayUrl("http://user:s3cret@host.test/x")).toBe("http://host.test/x");
  });
});

describe("guardedFetch", () => {
  let server: Server;
  let port = 0;
  const seen: { path: string; authorization: string | undefined }[] = [];
  let endSlowBody: () => void = () => undefined;

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push({ path: req.url ?? "", authorization: req.headers.authorization });
      const redirect = /^\/redirect\?to=(.*)$/.exec(req.url ?? "");
      if (redirect?.[1] !== undefined) {
        res.writeHead(302, { location: decodeURIComponent(redirect[1]) }).end();
        return;
      }
      if (req.url === "/silent") return; // never answers
      if (req.url === "/slow-body") {
        res.writeHead(200, { "content-type": "text/plain" });
        res.write("first ");
        // The body ends when the test says so (after the headers' time limit has passed).
        endSlowBody = () => res.end("last");
        return;
      }
      res.writeHead(200, { "content-type": "text/plain", "x-path": req.url ?? "" }).end(`hello ${req.method ?? ""}`);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );

  const rejection = async (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (e: unknown) => e,
    );

  it("fetches from an allowed address and streams the body", async () => {
    const response = await guardedFetch({ allowLocalNetwork: true })(`http://127.0.0.1:${port}/x`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("hello GET");
  });

  it("refuses a loopback literal before connecting without allowLocalNetwork", async () => {
    const before = seen.length;
    const error = await rejection(guardedFetch({ allowLocalNetwork: false })(`http://127.0.0.1:${port}/x`));
    expect(isBlockedUrlError(error)).toBe(true);
    expect(seen.length).toBe(before);
  });

  it("refuses a name that resolves to a private address at connect time", async () => {
    const error = await rejection(guardedFetch({ allowLocalNetwork: false, lookup })(`http://stand-in.test:${port}/x`));
    expect(isBlockedUrlError(error)).toBe(true);
  });

  it("connects to the address the guard resolved (the name is pinned to the checked address)", async () => {
    const response = await guardedFetch({ allowLocalNetwork: true, lookup })(`http://stand-in.test:${port}/pinned`);
    expect(response.headers.get("x-path")).toBe("/pinned");
  });

  it("re-checks a redirect: a hop to a metadata address is refused", async () => {
    const to = encodeURIComponent("http://169.254.169.254/latest/meta-data/");
    const error = await rejection(guardedFetch({ allowLocalNetwork: true })(`http://127.0.0.1:${port}/redirect?to=${to}`));
    expect(isBlockedUrlError(error)).toBe(true);
  });

  it("re-checks a redirect: a hop to a name resolving to a private address is refused", async () => {
    // The first hop is allowed (a public name in the fake resolver pointing at the test server would
    // need allowLocalNetwork), so the test allows local addresses and redirects to a metadata name.
    const to = encodeURIComponent("http://metadata.test/");
    const error = await rejection(guardedFetch({ allowLocalNetwork: true, lookup })(`http://stand-in.test:${port}/redirect?to=${to}`));
    expect(isBlockedUrlError(error)).toBe(true);
  });

  it("refuses a redirect to another scheme", async () => {
    const error = await rejection(guardedFetch({ allowLocalNetwork: true })(`http://127.0.0.1:${port}/redirect?to=${encodeURIComponent("file:///etc/passwd")}`));
    expect(isBlockedUrlError(error)).toBe(true);
  });

  it("follows an allowed redirect, dropping Authorization when the origin changes", async () => {
    const other = `http://localhost:${port}/landed`;
    const lookupLocal = fakeLookup({ localhost: ["127.0.0.1"] });
    const response = await guardedFetch({ allowLocalNetwork: true, lookup: lookupLocal })(`http://127.0.0.1:${port}/redirect?to=${encodeURIComponent(other)}`, {
      headers: { authorization: "Bearer secret-token" },
    });
    expect(response.headers.get("x-path")).toBe("/landed");
    expect(seen.at(-2)?.authorization).toBe("Bearer secret-token");
    expect(seen.at(-1)).toEqual({ path: "/landed", authorization: undefined });
  });

  it("keeps Authorization on a same-origin redirect and returns redirects as-is with redirect: manual", async () => {
    await guardedFetch({ allowLocalNetwork: true })(`http://127.0.0.1:${port}/redirect?to=%2Fsame`, { headers: { authorization: "Bearer t" } });
    expect(seen.at(-1)).toEqual({ path: "/same", authorization: "Bearer t" });
    const manual = await guardedFetch({ allowLocalNetwork: true })(`http://127.0.0.1:${port}/redirect?to=%2Fsame`, { redirect: "manual" });
    expect(manual.status).toBe(302);
  });

  it("gives up when no response headers come within timeoutMs", async () => {
    const error = await rejection(guardedFetch({ allowLocalNetwork: true, timeoutMs: 200 })(`http://127.0.0.1:${port}/silent`));
    expect(error).toBeInstanceOf(TypeError);
    expect(isBlockedUrlError(error)).toBe(false);
  });

  it("lets a body stream past timeoutMs once the headers came", async () => {
    // A limit a loaded machine cannot miss for local headers; the body then ends only after it.
    const response = await guardedFetch({ allowLocalNetwork: true, timeoutMs: 2_000 })(`http://127.0.0.1:${port}/slow-body`);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    endSlowBody();
    expect(await response.text()).toBe("first last");
  });

  it("stops after too many redirects", async () => {
    const loop = `http://127.0.0.1:${port}/redirect?to=${encodeURIComponent(`/redirect?to=${encodeURIComponent("/redirect?to=%2Fx")}`)}`;
    const error = await rejection(guardedFetch({ allowLocalNetwork: true, maxRedirects: 2 })(loop));
    expect(String(error)).toContain("more than 2 redirects");
  });
});
