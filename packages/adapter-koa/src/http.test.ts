import { createServer } from "node:http";
import Koa from "koa";
import { allHttpSuites, conventionSuites, describeHttpSuite, gitHttpInputSuite, gitHttpSuite, listenOn } from "@forgekit/core/testing";
import { forgekit } from "./index.js";
import { nodeListener } from "./test-support.js";

describeHttpSuite(
  "koa",
  (instance) => {
    const app = new Koa();
    app.use(forgekit(instance));
    return listenOn(createServer(nodeListener(app)));
  },
  // The git suites run at this same root mount in git-http.test.ts, behind a body parser (the harder case): not twice.
  allHttpSuites.filter((suite) => suite !== gitHttpSuite && suite !== gitHttpInputSuite),
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
