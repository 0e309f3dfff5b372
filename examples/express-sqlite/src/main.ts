/**
 * `pnpm start`: the quick-start main job. Environment: PORT (default 3000), DATABASE_URL (default
 * ./data/forgekit.db, relative to the working directory: the repository root under `pnpm start`),
 * FORGEKIT_BASE_URL (default http://localhost:$PORT), FORGEKIT_KEY_ENCRYPTION_KEY or
 * FORGEKIT_KEY_ENCRYPTION_KEY_FILE (default: the key file next to the database, written on the
 * first start). Stops on SIGINT / SIGTERM.
 */
import { DEFAULT_DATABASE, runDemoMain } from "@forgekit/cli";
import { startExpressExample } from "./app.js";

await runDemoMain(startExpressExample, DEFAULT_DATABASE);
