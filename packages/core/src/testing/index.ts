export {};
export { memoryStore } from "./memory-store/index.js";
export { runStoreConformance, type ConformanceOptions } from "./store-conformance/index.js";
export { createMemoryOAuthStore } from "./oauth-memory-store/index.js";
export { runOAuthStoreConformance, type MakeOAuthStore, type OAuthStoreConformanceOptions } from "./oauth-store-conformance/index.js";
