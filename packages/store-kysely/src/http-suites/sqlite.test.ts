/** Every HTTP suite on SQLite (an in-memory database per instance). */
import { kyselyStore, sqlite } from "../index.js";
import { describeOn } from "./describe-on.js";

describeOn("SQLite", () => kyselyStore(sqlite(":memory:")));
