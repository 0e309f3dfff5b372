/**
 * The bare node handler on the in-memory store: the conventions, at the root and below a prefix.
 * Every other HTTP suite runs through this same handler on SQLite, PostgreSQL and MySQL
 * (store-kysely's `store-kysely-http` project), and on the memory store through both adapters.
 */
import { createServer } from "node:http";
import { conventionSuites, describeHttpSuite, listenOn } from "../testing/index.js";
import { createNodeHandler } from "./index.js";

describeHttpSuite("node:http", (instance) => listenOn(createServer(createNodeHandler(instance))), conventionSuites);

describeHttpSuite(
  "node:http below /forge",
  (instance) => listenOn(createServer(createNodeHandler(instance, { prefix: "/forge" })), "/forge"),
  conventionSuites,
);
