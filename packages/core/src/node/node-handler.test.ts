import { createServer } from "node:http";
import { allHttpSuites, conventionSuites, describeHttpSuite, listenOn } from "../testing/index.js";
import { createNodeHandler } from "./index.js";

describeHttpSuite("node:http", (instance) => listenOn(createServer(createNodeHandler(instance))), allHttpSuites);

describeHttpSuite(
  "node:http below /forge",
  (instance) => listenOn(createServer(createNodeHandler(instance, { prefix: "/forge" })), "/forge"),
  conventionSuites,
);
