/** The protected branches and tags suites: the API and the enforcement on git pushes, repository writes and merges. */
import type { HttpSuite } from "../http-harness.js";
import { protectedRefsApiSuite } from "./protected-refs-api.js";
import { protectedRefsEnforcementSuite } from "./protected-refs-enforcement.js";

export const protectedRefsSuites: readonly HttpSuite[] = [protectedRefsApiSuite, protectedRefsEnforcementSuite];
