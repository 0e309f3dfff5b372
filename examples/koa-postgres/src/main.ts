/**
 * The koa + PostgreSQL example. Environment: PORT (default 3000), DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/test), FORGEKIT_BASE_URL (default http://localhost:$PORT).
 * Stops on SIGINT / SIGTERM.
 */
import { runDemoMain } from "@forgekit/cli";
import { DEFAULT_POSTGRES_URL, startKoaExample } from "./app.js";

await runDemoMain(startKoaExample, DEFAULT_POSTGRES_URL);
