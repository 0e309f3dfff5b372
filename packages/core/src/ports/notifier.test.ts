import { describe, expect, it } from "vitest";
import type { Logger, LogLevel } from "./runtime.js";
import { loggingNotifier } from "./notifier.js";

describe("loggingNotifier", () => {
  it("writes one warn event per message with the recipient, subject and body", async () => {
    const lines: { level: LogLevel; event: string; fields?: Record<string, unknown> }[] = [];
    const logger: Logger = { log: (level, event, fields) => lines.push(fields === undefined ? { level, event } : { level, event, fields }) };
    await loggingNotifier(logger).notify({ id: 3, username: "ada", email: "ada@example.test" }, { subject: "Gists not imported", body: "- big (11 files)" });
    expect(lines).toEqual([{ level: "warn", event: "notification", fields: { userId: 3, username: "ada", subject: "Gists not imported", body: "- big (11 files)" } }]);
  });

  it("does not log the recipient's e-mail address", async () => {
    const lines: string[] = [];
    await loggingNotifier({ log: (_l, _e, fields) => lines.push(JSON.stringify(fields)) }).notify({ id: 1, username: "u", email: "private@example.test" }, { subject: "s", body: "b" });
    expect(lines.join("")).not.toContain("private@example.test");
  });
});
