/**
 * `pnpm --filter @forgekit/example-own-users start`: the host with its own users, on PORT (default
 * 3001), forgekit's tables in ./data/own-users.db. Prints how to sign in and call the API.
 */
import { startOwnUsersApp } from "./app.js";

const app = await startOwnUsersApp({ port: Number(process.env["PORT"] ?? "3001"), database: "./data/own-users.db", repositories: "./data/own-users-repositories" });
console.log(`host with its own users on ${app.url}
  curl -c jar -d login=grace -d password=grace-password ${app.url}/login      # prints the CSRF token
  curl -b jar ${app.url}/api/v4/user
  curl -b jar -H 'X-CSRF-Token: <token>' -d email=g2@host.example ${app.url}/api/v4/user/emails`);
const stop = () => void app.close().then(() => process.exit(0));
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
