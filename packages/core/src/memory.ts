/**
 * `@forgekit/core/memory`: the in-memory store, for demos, prototypes and a host's own tests. It
 * keeps everything in the process (nothing survives a restart) and imports no test framework, so it
 * loads from ESM and CommonJS alike. The conformance suites that prove a store right stay on
 * `@forgekit/core/testing` (which needs Vitest).
 */
export { memoryStore } from "./memory-store/index.js";
