/** The events HTTP suites: `GET /events`, `GET /users/:id/events`, `GET /projects/:id/events`. */
import type { HttpSuite } from "../http-harness.js";
import { ownEventsSuite } from "./events-own.js";
import { projectEventsSuite } from "./events-projects.js";
import { userEventsSuite } from "./events-users.js";

export { ownEventsSuite } from "./events-own.js";
export { projectEventsSuite } from "./events-projects.js";
export { userEventsSuite } from "./events-users.js";
export { createEventsWorld, type EventsWorld } from "./events-fixture.js";

/** Every events suite, for adapters to run. */
export const eventsSuites: readonly HttpSuite[] = [ownEventsSuite, userEventsSuite, projectEventsSuite];
