import { describe, expect, it } from "vitest";
import { leakedSecrets } from "../../testing/http-suite/oauth-fixture.js";
import { redactQuery } from "./log.js";

describe("redactQuery", () => {
  it("masks the values of credential parameters, keeps the rest verbatim", () => {
    expect(redactQuery("access_token=fkoa_abc&per_page=20")).toBe("access_token=[REDACTED]&per_page=20");
    expect(redactQuery("client_id=x&client_secret=s&code=c&state=st&refresh_token=r&password=p")).toBe(
      "client_id=x&client_secret=[REDACTED]&code=[REDACTED]&state=st&refresh_token=[REDACTED]&password=[REDACTED]",
    );
  });
  it("matches encoded and differently cased names", () => {
    expect(redactQuery("access%5Ftoken=t&ACCESS_TOKEN=u&private_token=v")).toBe("access%5Ftoken=[REDACTED]&ACCESS_TOKEN=[REDACTED]&private_token=[REDACTED]");
  });
  it("masks a parameter whose name does not decode; leaves valueless pairs and an empty query alone", () => {
    expect(redactQuery("%E0%A4%A=secret&flag")).toBe("%E0%A4%A=[REDACTED]&flag");
    expect(redactQuery("")).toBe("");
  });
});

describe("leakedSecrets (the OAuth suites' log check)", () => {
  it("finds a secret anywhere in a serialised log entry, and nothing when none leaked", () => {
    const logs = [{ level: "info" as const, event: "oauth.token_issued", fields: { nested: { note: "token fkoa_leaked123 here" } } }];
    expect(leakedSecrets(logs, new Set(["fkoa_leaked123", "fkor_safe4567"]))).toEqual(["fkoa_leaked123"]);
    expect(leakedSecrets(logs, new Set(["fkor_safe4567"]))).toEqual([]);
  });
});
