/**
 * `forgekit openapi [--out <file>]` and `forgekit routes [--readme <file>]`: the OpenAPI 3.1
 * document and the route list of docs/reference/routes.md, generated from the route table (issue 11). Both read no
 * data, so they run without a database.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { okAsync } from "neverthrow";
import { routeListMarkdown, withRouteList } from "@forgekit/core";
import { UsageError } from "../usage-error.js";
import type { Command } from "./context.js";

/** The document as the committed `docs/openapi.json` holds it (two-space JSON, final newline). */
export const openApiText = (document: unknown): string => `${JSON.stringify(document, null, 2)}\n`;

const openapi: Command = {
  name: "openapi",
  summary: "print the OpenAPI 3.1 document of the /api/v4 routes (or write it to a file)",
  standalone: true,
  options: {
    out: { type: "string", placeholder: "<file>", description: "write the document to this file instead of stdout" },
  },
  notes: [
    "The OAuth URLs and the server come from --base-url (default http://localhost:3000).",
    "Regenerate the committed document: npx -y pnpm@10.34.8 forgekit openapi --out docs/openapi.json",
  ],
  run: ({ fk, io }, args) => {
    const document = fk.openApi();
    const text = openApiText(document);
    const out = args.string("out");
    const operations = Object.values(document.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
    if (out === undefined) return okAsync({ json: document, text: [text.slice(0, -1)] });
    writeFileSync(resolve(io?.cwd ?? process.cwd(), out), text);
    return okAsync({ json: { file: out, operations }, text: [`wrote ${out} (${operations} operations)`] });
  },
};

const routes: Command = {
  name: "routes",
  summary: "print every /api/v4 route as a markdown table (or update a markdown file's route list)",
  standalone: true,
  options: {
    readme: { type: "string", placeholder: "<file>", description: "replace the list between <!-- routes:start --> and <!-- routes:end --> in this file" },
  },
  notes: ["Regenerate the documentation site's list: npx -y pnpm@10.34.8 forgekit routes --readme docs/reference/routes.md"],
  run: ({ fk, io }, args) => {
    const list = routeListMarkdown(fk.routes);
    const readme = args.string("readme");
    if (readme === undefined) return okAsync({ json: { routes: fk.routes.map((r) => ({ method: r.method, path: r.path })) }, text: [list] });
    const file = resolve(io?.cwd ?? process.cwd(), readme);
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      throw new UsageError(`cannot read ${readme}`, "routes");
    }
    let updated: string;
    try {
      updated = withRouteList(text, list);
    } catch (error) {
      throw new UsageError(`${readme}: ${(error as Error).message}`, "routes");
    }
    writeFileSync(file, updated);
    return okAsync({ json: { file: readme, routes: fk.routes.length }, text: [`${updated === text ? "unchanged" : "updated"} ${readme} (${fk.routes.length} routes)`] });
  },
};

/** The generated-documentation commands. */
export const openApiCommands: Command[] = [openapi, routes];
