import { createServer } from "node:http";
import express from "express";
import { allHttpSuites, conventionSuites, describeHttpSuite, gitHttpInputSuite, gitHttpSuite, listenOn } from "@forgekit/core/testing";
import { forgekit } from "./index.js";

describeHttpSuite(
  "express",
  (instance) => {
    const app = express();
    app.use(forgekit(instance));
    return listenOn(createServer(app));
  },
  // The git suites run at this same root mount in git-http.test.ts, behind a body parser (the harder case): not twice.
  allHttpSuites.filter((suite) => suite !== gitHttpSuite && suite !== gitHttpInputSuite),
);

describeHttpSuite(
  "express below /forge",
  (instance) => {
    const app = express();
    app.use("/forge", forgekit(instance));
    return listenOn(createServer(app), "/forge");
  },
  conventionSuites,
);
