import { createServer } from "node:http";
import { conventionSuites, describeHttpSuite, listenOn } from "../testing/index.js";
import { createNodeHandler } from "./index.js";

describeHttpSuite("node:http", (instance) => listenOn(createServer(createNodeHandler(instance))), conventionSuites);

describeHttpSuite(
  "node:http below /forge",
  (instance) => listenOn(createServer(createNodeHandler(instance, { prefix: "/forge" })), "/forge"),
  conventionSuites,
);
