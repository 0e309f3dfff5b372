/** The password-hashing gate: at most `concurrency` running, `queue` waiting, the rest refused at once. */
import { describe, expect, it, vi } from "vitest";
import { isOverloaded, unavailableIn } from "../ports/store-errors.js";
import { heldPasswordHasher } from "../testing/held-password-hasher.js";
import { boundedPasswordHasher, defaultHashingConcurrency } from "./bounded-password-hasher.js";

const settled = async <T>(promise: Promise<T>) => promise.then((value) => ({ value }), (error: unknown) => ({ error }));

describe("boundedPasswordHasher", () => {
  it("runs at most `concurrency` calls; `queue` more wait and start as running ones finish", async () => {
    const inner = heldPasswordHasher();
    inner.holding = ["hash", "verify"];
    const gate = boundedPasswordHasher(inner, { concurrency: 2, queue: 2, retryAfterSeconds: 1 });
    const calls = [gate.hash("a"), gate.verify("hash:b", "b"), gate.hash("c"), gate.verify("hash:d", "x")];
    await vi.waitFor(() => expect(inner.held).toHaveLength(2));
    expect(inner.calls).toEqual({ hash: 1, verify: 1 });
    inner.held[0]?.release();
    await vi.waitFor(() => expect(inner.calls).toEqual({ hash: 2, verify: 1 }));
    expect(inner.held).toHaveLength(2);
    inner.held[0]?.release();
    await vi.waitFor(() => expect(inner.calls).toEqual({ hash: 2, verify: 2 }));
    while (inner.held.length > 0) inner.held[0]?.release();
    expect(await Promise.all(calls)).toEqual(["hash:a", true, "hash:c", false]);
  });

  it("refuses a call beyond running and waiting at once with an overloaded error carrying Retry-After, without calling the hasher", async () => {
    const inner = heldPasswordHasher();
    inner.holding = ["hash", "verify"];
    const gate = boundedPasswordHasher(inner, { concurrency: 1, queue: 1, retryAfterSeconds: 3 });
    const running = gate.verify("hash:a", "a");
    const waiting = gate.verify("hash:b", "b");
    const refused = await settled(gate.hash("c"));
    expect("error" in refused && isOverloaded(refused.error)).toBe(true);
    expect("error" in refused && unavailableIn(refused.error)?.retryAfterSeconds).toBe(3);
    expect(inner.calls).toEqual({ hash: 0, verify: 1 });
    inner.held[0]?.release();
    await vi.waitFor(() => expect(inner.held).toHaveLength(1));
    inner.held[0]?.release();
    expect([await running, await waiting]).toEqual([true, true]);
  });

  it("a failing call frees its slot", async () => {
    const gate = boundedPasswordHasher({ hash: () => Promise.reject(new Error("boom")), verify: () => Promise.resolve(true) }, { concurrency: 1, queue: 0, retryAfterSeconds: 1 });
    await expect(gate.hash("a")).rejects.toThrow("boom");
    expect(await gate.verify("h", "a")).toBe(true);
  });

  it("the default concurrency is the CPUs, at least 1, below libuv's thread pool", () => {
    const concurrency = defaultHashingConcurrency();
    expect(concurrency).toBeGreaterThanOrEqual(1);
    expect(concurrency).toBeLessThanOrEqual(Math.max(1, (Number(process.env.UV_THREADPOOL_SIZE) || 4) - 1));
  });
});
