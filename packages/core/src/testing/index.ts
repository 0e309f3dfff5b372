export {};
export { memoryStore } from "./memory-store/index.js";
