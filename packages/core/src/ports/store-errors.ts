/** The errors a store throws when its database is unavailable or overloaded: they live in the domain floor (domain/store-errors.ts), next to the ForgekitError union that carries them; re-exported here for the stores that import them from the ports. */
export * from "../domain/store-errors.js";
