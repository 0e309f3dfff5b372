import { describe, expect, it } from "vitest";
import { parseConfig } from "./config.js";
import { defaultHashingConcurrency } from "./runtime/bounded-password-hasher.js";
import { memoryStore } from "./memory-store/index.js";

describe("parseConfig", () => {
  const store = memoryStore();

  it("fills production defaults and freezes the result", () => {
    const config = parseConfig({ baseUrl: "https://code.example.com/", store })._unsafeUnwrap();
    expect(config.baseUrl).toBe("https://code.example.com");
    expect(config.tier).toBe("free");
    expect(config.tokenPrefix).toBe("fkpat-");
    expect(config.repositoryStorages).toEqual({ default: {} });
    expect(config.defaultRepositoryStorage).toBe("default");
    expect(config.limits).toEqual({ bodyBytes: 1024 * 1024, uriLength: 8192, uploadBytes: 10 * 1024 * 1024 });
    expect(config.impersonationEnabled).toBe(true);
    expect(config.clock.now()).toBeInstanceOf(Date);
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.repositoryStorages)).toBe(true);
    expect(config.store).toBe(store);
  });

  it("keeps a path prefix in the base URL", () => {
    expect(parseConfig({ baseUrl: "http://example.com/forge//", store })._unsafeUnwrap().baseUrl).toBe("http://example.com/forge");
  });

  it("rejects relative, non-http and query-carrying base URLs", () => {
    for (const baseUrl of ["/forge", "ftp://example.com", "https://example.com/?a=1", "not a url"]) {
      const error = parseConfig({ baseUrl, store })._unsafeUnwrapErr();
      expect(error.issues[0]?.path).toBe("baseUrl");
    }
  });

  it("reports every invalid field", () => {
    const error = parseConfig({ baseUrl: "https://x.example", store: {}, tier: "gold", tokenPrefix: "bad prefix!", repositoryStorages: [] })._unsafeUnwrapErr();
    expect(error.issues.map((i) => i.path).sort()).toEqual(["repositoryStorages", "store", "tier", "tokenPrefix"]);
    expect(error.message).toContain("Invalid forgekit configuration");
  });

  it("accepts host ports and overrides", () => {
    const clock = { now: () => new Date(0) };
    const config = parseConfig({ baseUrl: "https://x.example", store, tier: "ultimate", clock, tokenPrefix: "abc_", impersonationEnabled: false })._unsafeUnwrap();
    expect(config.clock).toBe(clock);
    expect(config.tier).toBe("ultimate");
    expect(config.impersonationEnabled).toBe(false);
  });

  it("passwordHashing: concurrency defaults to the CPUs below libuv's pool, the queue to twice it, Retry-After to 1 s; bad values are refused", () => {
    expect(parseConfig({ baseUrl: "https://x.example", store })._unsafeUnwrap().passwordHashing).toEqual({
      concurrency: defaultHashingConcurrency(),
      queue: 2 * defaultHashingConcurrency(),
      retryAfterSeconds: 1,
    });
    expect(parseConfig({ baseUrl: "https://x.example", store, passwordHashing: { concurrency: 3 } })._unsafeUnwrap().passwordHashing).toEqual({ concurrency: 3, queue: 6, retryAfterSeconds: 1 });
    expect(parseConfig({ baseUrl: "https://x.example", store, passwordHashing: { concurrency: 1, queue: 0, retryAfterSeconds: 4 } })._unsafeUnwrap().passwordHashing).toEqual({ concurrency: 1, queue: 0, retryAfterSeconds: 4 });
    const error = parseConfig({ baseUrl: "https://x.example", store, passwordHashing: { concurrency: 0, queue: -1, retryAfterSeconds: 0.5, burst: 1 } })._unsafeUnwrapErr();
    expect(error.issues.map((i) => i.path).sort()).toEqual(["passwordHashing.burst", "passwordHashing.concurrency", "passwordHashing.queue", "passwordHashing.retryAfterSeconds"]);
  });

  it("refuses a port without its methods", () => {
    expect(parseConfig({ baseUrl: "https://x.example", store, clock: { now: 1 } }).isErr()).toBe(true);
  });
});

describe("parseConfig wording and unknown keys", () => {
  const store = memoryStore();
  const issues = (input: Record<string, unknown>) => parseConfig({ baseUrl: "https://x.example", store, ...input })._unsafeUnwrapErr().issues;

  it("rejects unknown keys, naming each (a typo in plain JS must not silently do nothing)", () => {
    expect(issues({ repositoryStorage_: {}, tokenprefix: "x" })).toEqual([
      { path: "repositoryStorage_", message: "is not a known option" },
      { path: "tokenprefix", message: "is not a known option" },
    ]);
    expect(issues({ limits: { bodyBytes: 10, uriLenght: 5 } })).toEqual([{ path: "limits.uriLenght", message: "is not a known option" }]);
    expect(issues({ oauth: { accessTokenTTL: 5 } }).map((i) => i.path)).toEqual(["oauth.accessTokenTTL"]);
  });

  it("words every field error as the end of '<path> …'", () => {
    expect(parseConfig({ store })._unsafeUnwrapErr().issues).toEqual([{ path: "baseUrl", message: "is required" }]);
    expect(issues({ tier: "gold" })).toEqual([{ path: "tier", message: "must be one of free, premium, ultimate" }]);
    expect(issues({ impersonationEnabled: "yes" })).toEqual([{ path: "impersonationEnabled", message: "must be a boolean" }]);
    expect(issues({ limits: { bodyBytes: 0 } })).toEqual([{ path: "limits.bodyBytes", message: "must be greater than 0" }]);
    expect(issues({ limits: "big" })).toEqual([{ path: "limits", message: "must be an object" }]);
    const error = parseConfig({ baseUrl: "https://x.example", store, tier: "gold", bogus: 1 })._unsafeUnwrapErr();
    expect(error.message).toBe("Invalid forgekit configuration: tier must be one of free, premium, ultimate; bogus is not a known option");
  });
});
