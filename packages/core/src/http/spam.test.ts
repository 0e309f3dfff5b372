import { describe, expect, it } from "vitest";
import type { SpamCheckInput } from "../ports/host.js";
import { checkSpam, spamRetryFrom } from "./spam.js";

describe("spamRetryFrom", () => {
  it("reads the CAPTCHA answer and the numeric spam log id", () => {
    expect(spamRetryFrom({ headers: { "x-service-captcha-response": "answer", "x-service-spam-log-id": "7" } })).toEqual({
      captchaResponse: "answer",
      spamLogId: 7,
    });
  });
  it("ignores empty answers and non-numeric log ids", () => {
    expect(spamRetryFrom({ headers: { "x-service-captcha-response": "", "x-service-spam-log-id": "7x" } })).toEqual({});
  });
});

describe("checkSpam", () => {
  const content = { userId: 1, target: "snippet", text: "hi" };
  it("passes when no checker is configured", async () => {
    expect((await checkSpam(undefined, { headers: {} }, content)).isOk()).toBe(true);
  });
  it("hands the retry headers to the checker", async () => {
    let seen: SpamCheckInput | undefined;
    const checker = { check: (input: SpamCheckInput) => ((seen = input), Promise.resolve({ spam: false as const })) };
    const result = await checkSpam(checker, { headers: { "x-service-captcha-response": "a", "x-service-spam-log-id": "3" } }, content);
    expect(result.isOk()).toBe(true);
    expect(seen).toEqual({ ...content, captchaResponse: "a", spamLogId: 3 });
  });
  it("a checker that rejects is an internal error, not a pass", async () => {
    const result = await checkSpam({ check: () => Promise.reject(new Error("down")) }, { headers: {} }, content);
    expect(result.isErr() && result.error.code).toBe("internal");
  });
});
