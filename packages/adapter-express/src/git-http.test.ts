import { createServer } from "node:http";
import express from "express";
import { describeHttpSuite, gitHttpSuite, listenOn } from "@forgekit/core/testing";
import { forgekit } from "./index.js";

describeHttpSuite(
  "express (git)",
  (instance) => {
    const app = express();
    app.use(forgekit(instance));
    return listenOn(createServer(app));
  },
  [gitHttpSuite],
);
