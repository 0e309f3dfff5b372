/**
 * The koa + PostgreSQL example. Environment: PORT (default 3000), DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/test), FORGEKIT_BASE_URL (default http://localhost:$PORT).
 * Stops on SIGINT / SIGTERM.
 */
import { DEFAULT_POSTGRES_URL, startKoaExample } from "./app.js";

/** An environment variable, with "" treated as unset. */
const env = (name: string): string | undefined => (process.env[name] === "" ? undefined : process.env[name]);

const port = Number(env("PORT") ?? "3000");
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be an integer 0-65535, got "${process.env["PORT"]}"`);
  process.exit(2);
}

const running = await startKoaExample({
  port,
  database: env("DATABASE_URL") ?? DEFAULT_POSTGRES_URL,
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
