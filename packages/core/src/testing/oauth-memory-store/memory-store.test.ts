import { runOAuthStoreConformance } from "../oauth-store-conformance/index.js";
import { createMemoryOAuthStore } from "./index.js";

runOAuthStoreConformance("memoryStore().oauth", () => createMemoryOAuthStore(), { races: 50 });
