/** The protected branches and tags suites: the API and the enforcement on git pushes, repository writes and merges. */
import type { HttpSuite } from "../http-harness.js";
import { protectedRefsApiSuite } from "./protected-refs-api.js";

export const protectedRefsSuites: readonly HttpSuite[] = [protectedRefsApiSuite];
