import { runJobsConformance } from "../testing/jobs-conformance/index.js";
import { memoryStore } from "./index.js";

// One store stands for both "processes": the memory store lives in one process only.
runJobsConformance("memoryStore.jobs", async () => {
  const store = memoryStore();
  return { store, rival: store };
});
