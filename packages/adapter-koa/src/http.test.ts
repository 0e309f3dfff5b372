import { createServer, type RequestListener } from "node:http";
import Koa from "koa";
import { allHttpSuites, conventionSuites, describeHttpSuite, listenOn } from "@forgekit/core/testing";
import { forgekit } from "./index.js";

/** koa's callback returns a promise; node:http wants a void listener. */
const nodeListener = (app: Koa): RequestListener => {
  const callback = app.callback();
  return (req, res) => {
    void callback(req, res);
  };
};

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
