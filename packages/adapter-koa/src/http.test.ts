import { createServer } from "node:http";
import Koa from "koa";
import { conventionSuites, describeHttpSuite, listenOn } from "@forgekit/core/testing";
import { forgekit } from "./index.js";

describeHttpSuite(
  "koa",
  (instance) => {
    const app = new Koa();
    app.use(forgekit(instance));
    return listenOn(createServer(app.callback()));
  },
  conventionSuites,
);

describeHttpSuite(
  "koa below /forge",
  (instance) => {
    const app = new Koa();
    app.use(forgekit(instance, { prefix: "/forge" }));
    return listenOn(createServer(app.callback()), "/forge");
  },
  conventionSuites,
);
