/** Every convention suite, in one list, for `describeHttpSuite(adapter, serve, conventionSuites)`. */
import type { HttpSuite } from "../http-harness.js";
import { errorsSuite } from "./conventions-errors.js";
import { contentTypeSuite, limitsSuite } from "./conventions-limits.js";
import { keysetPaginationSuite, offsetPaginationSuite } from "./conventions-pagination.js";
import { paramsSuite } from "./conventions-params.js";
import { routingSuite } from "./conventions-routing.js";

/**
 * The HTTP suites of the API conventions every endpoint follows (routing, parameters, errors, limits,
 * pagination).
 */
export const conventionSuites: readonly HttpSuite[] = [
  routingSuite,
  paramsSuite,
  errorsSuite,
  contentTypeSuite,
  offsetPaginationSuite,
  keysetPaginationSuite,
  limitsSuite,
];

export { contentTypeSuite, errorsSuite, keysetPaginationSuite, limitsSuite, offsetPaginationSuite, paramsSuite, routingSuite };
export { createConventionInstance, FIXTURE_BASE_URL } from "./conventions-fixture.js";
