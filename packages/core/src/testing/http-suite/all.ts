/** Every HTTP suite of core: adapters run this list (conventions first, then the capabilities). */
import type { HttpSuite } from "../http-harness.js";
import { accountsSuites } from "./accounts.js";
import { conventionSuites } from "./conventions.js";

export const allHttpSuites: readonly HttpSuite[] = [...conventionSuites, ...accountsSuites];
