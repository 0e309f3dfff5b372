/** The OpenAPI 3.1 document and the route list of docs/reference/routes.md, generated from the route table (issue 11). */
export { ENTITY_SCHEMAS, type EntityName } from "./entities.js";
export { isPaginated, openApiDocument, operationId, type OpenApiDocument, type OpenApiOperation, type OpenApiOptions } from "./document.js";
export { openApiPath, pathParamNames } from "./parameters.js";
export { ROUTES_END, ROUTES_START, routeListMarkdown, withRouteList } from "./route-list.js";
export { routeSummary } from "./summary.js";
