import { createServer } from "node:http";
import express from "express";
import { allHttpSuites, conventionSuites, describeHttpSuite, listenOn } from "@forgekit/core/testing";
import { forgekit } from "./index.js";

describeHttpSuite(
  "express",
  (instance) => {
    const app = express();
    app.use(forgekit(instance));
    return listenOn(createServer(app));
  },
  allHttpSuites,
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
