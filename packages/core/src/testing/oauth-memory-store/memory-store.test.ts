import { runOAuthStoreConformance } from "../oauth-store-conformance/index.js";
import { createMemoryOAuthStore } from "./index.js";

runOAuthStoreConformance("memory", () => createMemoryOAuthStore(), { races: 50 });
