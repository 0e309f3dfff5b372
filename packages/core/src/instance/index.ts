/** The instance capability: version, metadata and application settings routes. */
export { instanceRoutes, type InstanceRouteDeps } from "./routes.js";
export { COMPATIBLE_API_VERSION, FORGEKIT_VERSION, metadataEntity, versionEntity } from "./version.js";
