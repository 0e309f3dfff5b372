import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { RuleTester } from "eslint";
import tseslint from "typescript-eslint";
import { afterAll, describe, expect, it } from "vitest";
import { floorOf, floorsRule, noImportCycleRule } from "./floors.js";

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

// A workspace of a few files on disk: the rules read the other files of the package from there.
const root = mkdtempSync(join(tmpdir(), "forgekit-floors-"));
const core = join(root, "packages", "core", "src");
const other = join(root, "packages", "other", "src");
const files: Record<string, string> = {
  [join(core, "domain", "tier.ts")]: "export type Tier = 'free';\n",
  [join(core, "ports", "store.ts")]: "import type { Tier } from '../domain/tier.js';\nexport type Store = { tier: Tier };\n",
  [join(core, "http", "route-kit.ts")]: "export const kit = 1;\n",
  [join(core, "labels", "service.ts")]: "export const labels = 1;\n",
  [join(core, "labels", "index.ts")]: "export { labels } from './service.js';\n",
  [join(core, "config.ts")]: "export type ForgekitConfig = { a: 1 };\nexport const parseConfig = () => 1;\n",
  [join(core, "forgekit.ts")]: "export {};\n",
  [join(other, "a.ts")]: "import { b } from './b.js';\nexport const a = b;\n",
  [join(other, "b.ts")]: "export const b = 1;\n",
  [join(other, "c.ts")]: "export const c = 1;\n",
};
for (const [path, text] of Object.entries(files)) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

afterAll(() => rmSync(root, { recursive: true, force: true }));

const tester = new RuleTester({ languageOptions: { parser: tseslint.parser } });

describe("floorOf", () => {
  it("puts domain/, the listed entity files, ports, kits, capabilities and the host files on their floors", () => {
    expect(["domain/tier.ts", "errors.ts", "accounts/types.ts", "ports/store.ts", "http/route-kit.ts", "accounts/service-kit.ts", "labels/service.ts", "config.ts", "memory-store/state.ts", "activity/test-kit.ts"].map(floorOf)).toEqual([
      "domain",
      "domain",
      "domain",
      "ports",
      "kits",
      "kits",
      "capabilities",
      "host",
      "host",
      "host",
    ]);
  });
});

tester.run("floors", floorsRule, {
  valid: [
    { code: "import type { Tier } from '../domain/tier.js';", filename: join(core, "ports", "store.ts") },
    { code: "import type { Store } from '../ports/store.js';\nimport { kit } from '../http/route-kit.js';", filename: join(core, "labels", "service.ts") },
    { code: "import type { ForgekitConfig } from '../config.js';", filename: join(core, "labels", "service.ts") },
    { code: "import { type ForgekitConfig } from '../config.js';", filename: join(core, "http", "route-kit.ts") },
    { code: "import { labels } from './labels/index.js';\nimport { parseConfig } from './config.js';", filename: join(core, "forgekit.ts") },
    { code: "import { a } from './a.js';", filename: join(other, "c.ts") },
  ],
  invalid: [
    { code: "import type { Store } from '../ports/store.js';", filename: join(core, "domain", "tier.ts"), errors: [{ messageId: "upward" }] },
    { code: "export { labels } from '../labels/index.js';", filename: join(core, "ports", "store.ts"), errors: [{ messageId: "upward" }] },
    { code: "import { labels } from '../labels/service.js';", filename: join(core, "http", "route-kit.ts"), errors: [{ messageId: "upward" }] },
    { code: "import { parseConfig } from '../config.js';", filename: join(core, "labels", "service.ts"), errors: [{ messageId: "configValue" }] },
    { code: "import type { ForgekitConfig } from '../config.js';", filename: join(core, "ports", "store.ts"), errors: [{ messageId: "upward" }] },
  ],
});

tester.run("no-import-cycle", noImportCycleRule, {
  valid: [
    { code: "export const b = 1;", filename: join(other, "b.ts") },
    { code: "import { b } from './b.js';\nexport const c = b;", filename: join(other, "c.ts") },
  ],
  invalid: [
    { code: "import { a } from './a.js';\nexport const b = a;", filename: join(other, "b.ts"), errors: [{ messageId: "cycle", data: { size: "2", files: "a.ts, b.ts" } }] },
    { code: "import type { a } from './a.js';\nexport const b = 1;", filename: join(other, "b.ts"), errors: [{ messageId: "cycle" }] },
  ],
});
