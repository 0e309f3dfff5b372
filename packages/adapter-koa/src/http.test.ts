import { createServer } from "node:http";
import Koa from "koa";
import { allHttpSuites, conventionSuites, describeHttpSuite, listenOn } from "@forgekit/core/testing";
import { forgekit } from "./index.js";
import { nodeListener } from "./test-support.js";

describeHttpSuite(
  "koa",
  (instance) => {
    const app = new Koa();
    app.use(forgekit(instance));
    return listenOn(createServer(nodeListener(app)));
  },
  allHttpSuites,
);

describeHttpSuite(
  "koa below /forge",
  (instance) => {
    const app = new Koa();
    app.use(forgekit(instance, { prefix: "/forge" }));
    return listenOn(createServer(nodeListener(app)), "/forge");
  },
  conventionSuites,
);
