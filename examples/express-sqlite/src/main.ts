/**
 * `pnpm start`: the quick-start main job. Environment: PORT (default 3000), DATABASE_URL (default
 * ./data/forgekit.db, relative to the working directory: the repository root under `pnpm start`),
 * FORGEKIT_BASE_URL (default http://localhost:$PORT). Stops on SIGINT / SIGTERM.
 */
import { DEFAULT_DATABASE } from "@forgekit/cli";
import { startExpressExample } from "./app.js";

/** An environment variable, with "" treated as unset. */
const env = (name: string): string | undefined => (process.env[name] === "" ? undefined : process.env[name]);

const port = Number(env("PORT") ?? "3000");
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be an integer 0-65535, got "${process.env["PORT"]}"`);
  process.exit(2);
}

const running = await startExpressExample({
  port,
  database: env("DATABASE_URL") ?? DEFAULT_DATABASE,
  baseUrl: env("FORGEKIT_BASE_URL"),
}).catch((error: unknown) => {
  console.error(`forgekit example failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
console.log(running.banner);

const stop = () => {
  void running.close().then(() => process.exit(0));
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
