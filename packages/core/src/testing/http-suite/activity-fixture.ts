/** The world of the issue, note and milestone suites: a seeded instance with a SpamChecker and extra users. */
import type { SpamChecker, SpamCheckInput } from "../../ports/host.js";
import { createTestForgekit, type TestForgekit } from "../fixtures.js";

/** Text containing `SPAM` is flagged; `CAPTCHA` asks for a CAPTCHA that `solved` answers (spam log 42). */
export function fakeSpamChecker(seen: SpamCheckInput[] = []): SpamChecker {
  return {
    check: (input) => {
      seen.push(input);
      if (input.text.includes("CAPTCHA")) {
        return Promise.resolve(input.captchaResponse === "solved" && input.spamLogId === 42 ? { spam: false } : { spam: true, message: "Your issue has been recognized as spam.", captcha: { spamLogId: 42, siteKey: "site-key" } });
      }
      return Promise.resolve(input.text.includes("SPAM") ? { spam: true, message: "Your issue has been recognized as spam and has been discarded." } : { spam: false });
    },
  };
}

/** The seeded world plus `carol` (no memberships) and a `read_api` token of alice. */
export interface ActivityWorld {
  t: TestForgekit;
  carol: { id: number; token: string };
  readApi: string;
  spamSeen: SpamCheckInput[];
}

export async function activityWorld(): Promise<ActivityWorld> {
  const spamSeen: SpamCheckInput[] = [];
  const t = await createTestForgekit({ spamChecker: fakeSpamChecker(spamSeen) });
  const carol = await t.createUser({ username: "carol" });
  const carolToken = (await t.createToken(carol.id)).plaintext;
  const readApi = (await t.createToken(t.users.alice.id, { name: "reader", scopes: ["read_api"] })).plaintext;
  return { t, carol: { id: carol.id, token: carolToken }, readApi, spamSeen };
}

export type Json = Record<string, unknown>;
