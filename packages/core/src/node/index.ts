/**
 * `@forgekit/core/node`: the Node request/response layer shared by the express and koa adapters
 * and usable on bare `node:http` (DESIGN §2).
 */
export { toHttpRequest, type NodeRequestError, type NodeRequestOptions } from "./request.js";
export { writeHttpResponse } from "./response.js";
export { createNodeHandler, serveNodeRequest, type Servable } from "./serve.js";
export { DEFAULT_MOUNT_PATHS, servesPath, splitTarget, type HttpInstance, type MountOptions } from "../http/instance.js";
