/** The Labels API capability: project label routes, entities and colours. */
export { labelRoutes } from "./routes.js";
export { labelBasicEntity, projectLabelEntity, withLabelDetails, type LabelView } from "./entities.js";
export { labelColor, textColor } from "./colors.js";
export { DEFAULT_LABEL_COLOR, findOrCreateLabels } from "./find-or-create.js";
