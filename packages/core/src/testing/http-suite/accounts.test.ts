/**
 * Runs the accounts HTTP suites on node:http here; the adapters (express, koa) and the fetch
 * handler run them through `allHttpSuites`.
 */
import { createServer } from "node:http";
import { createNodeHandler } from "../../node/index.js";
import { describeHttpSuite, listenOn } from "../http-harness.js";
import { accountsSuites } from "./accounts.js";

describeHttpSuite("node:http", (instance) => listenOn(createServer(createNodeHandler(instance))), accountsSuites);
