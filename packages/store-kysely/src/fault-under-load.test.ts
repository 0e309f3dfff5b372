/**
 * The fault test (issue 8): a real instance over HTTP (createForgekit through the node handler on
 * 127.0.0.1:0) under a load of mixed reads and writes; one second in, every server-side connection
 * of its database is ended (PostgreSQL `pg_terminate_backend`, MySQL `KILL`). The server keeps
 * running, no acknowledged write is lost (every write answered 2xx is readable afterwards), the only
 * failures are 503s, and none happen more than a second after the fault. Prints the figures
 * (requests, errors during the fault, time to recover) per database. Runs in a database the test
 * creates and drops, so only its own connections are ended.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Store } from "@forgekit/core";
import { kyselyStore, mysql, postgres } from "./index.js";
import { capturingLogger, mysqlFaultDatabase, postgresFaultDatabase, servedInstance, type FaultDatabase } from "./test-faults.js";

const LOAD_MS = 3_000;
const FAULT_AT_MS = 1_000;
const WORKERS = 8;
/** The error rate must be back to zero this long after the fault. */
const RECOVERY_LIMIT_MS = 1_000;

interface Sample {
  kind: "read" | "write";
  start: number;
  end: number;
  /** HTTP status, or 0 when the request itself failed (connection refused or reset). */
  status: number;
}

/** Sends one request; the status, or 0 if the server did not answer. */
async function send(url: string, init: RequestInit): Promise<{ status: number; body: unknown }> {
  try {
    const response = await fetch(url, init);
    const text = await response.text();
    return { status: response.status, body: text === "" ? null : (JSON.parse(text) as unknown) };
  } catch {
    return { status: 0, body: null };
  }
}

function faultSuite(name: string, url: string, setup: { database: (url: string) => Promise<FaultDatabase>; store: (url: string) => Store }) {
  describe(`${name} - fault under load`, () => {
    let database: FaultDatabase;
    beforeEach(async () => {
      database = await setup.database(url);
    });
    afterEach(() => database.drop());

    it("connections ended under mixed reads and writes: server keeps running, no acknowledged write lost, errors gone within a second", async () => {
      const uncaught: unknown[] = [];
      const record = (error: unknown) => uncaught.push(error);
      process.on("uncaughtExceptionMonitor", record);
      const { t, url: api, close } = await servedInstance(setup.store(database.url), capturingLogger());
      try {
        const admin = { "private-token": t.tokens.root, "content-type": "application/json" };
        const tokens = `${api}/users/${t.users.alice.id}/impersonation_tokens`;
        const acknowledged: { id: number; name: string }[] = [];
        const samples: Sample[] = [];
        const began = performance.now();
        let written = 0;

        const worker = async (index: number) => {
          for (let round = 0; performance.now() - began < LOAD_MS; round += 1) {
            const start = performance.now();
            if ((round + index) % 3 === 0) {
              written += 1;
              const name = `load-${index}-${written}`;
              const { status, body } = await send(tokens, { method: "POST", headers: admin, body: JSON.stringify({ name, scopes: ["api"] }) });
              samples.push({ kind: "write", start, end: performance.now(), status });
              if (status === 201) acknowledged.push({ id: (body as { id: number }).id, name });
            } else {
              const known = acknowledged[Math.floor(Math.random() * acknowledged.length)];
              const target = known === undefined ? `${api}/users/${t.users.bob.id}` : `${tokens}/${known.id}`;
              const { status } = await send(target, { headers: admin });
              samples.push({ kind: "read", start, end: performance.now(), status });
            }
          }
        };

        const fault = (async () => {
          await new Promise((resolve) => setTimeout(resolve, FAULT_AT_MS));
          const at = performance.now();
          const ended = await database.killConnections();
          return { at, ended };
        })();
        await Promise.all(Array.from({ length: WORKERS }, (_, index) => worker(index)));
        const { at: faultAt, ended } = await fault;

        const failed = samples.filter((sample) => sample.status < 200 || sample.status > 299);
        const lateFailures = failed.filter((sample) => sample.start > faultAt + RECOVERY_LIMIT_MS);
        const recoveryMs = failed.length === 0 ? 0 : Math.max(0, ...failed.map((sample) => sample.end - faultAt));
        const afterFault = samples.filter((sample) => sample.end >= faultAt);
        console.log(
          `store-kysely fault test on ${name}: ${ended} connections ended at ${(faultAt - began).toFixed(0)} ms; ` +
            `${samples.length} requests (${samples.filter((s) => s.kind === "write").length} writes, ${acknowledged.length} acknowledged), ` +
            `${afterFault.length} after the fault, ${failed.length} errors (${failed.filter((s) => s.kind === "read").length} reads, ` +
            `${failed.filter((s) => s.kind === "write").length} writes; statuses ${JSON.stringify([...new Set(failed.map((s) => s.status))])}), ` +
            `time to recover ${recoveryMs.toFixed(0)} ms`,
        );

        expect(ended).toBeGreaterThan(0);
        expect(afterFault.length).toBeGreaterThan(WORKERS);
        // Only 503s (Retry-After) while the connections were being replaced: no 500, no dropped request.
        expect(failed.map((sample) => sample.status).filter((status) => status !== 503)).toEqual([]);
        expect(lateFailures).toEqual([]);
        expect(recoveryMs).toBeLessThan(RECOVERY_LIMIT_MS);

        // Every write answered 201 is there, with what was written.
        const stored = await t.store.accessTokens.list({ userId: t.users.alice.id, kind: "impersonation", now: t.clock.now() });
        const names = new Map(stored.map((token) => [token.id, token.name]));
        expect(acknowledged.filter((write) => names.get(write.id) !== write.name)).toEqual([]);
        expect(uncaught).toEqual([]);
      } finally {
        process.off("uncaughtExceptionMonitor", record);
        await close();
      }
    });
  });
}

const pgUrl = process.env.FORGEKIT_TEST_POSTGRES_URL ?? "";
// Without FORGEKIT_TEST_POSTGRES_URL the tests are collected as skipped, so the run's summary counts them.
describe.skipIf(pgUrl === "")("PostgreSQL", () => {
  faultSuite("PostgreSQL", pgUrl, { database: postgresFaultDatabase, store: (url) => kyselyStore(postgres(url)) });
});

const myUrl = process.env.FORGEKIT_TEST_MYSQL_URL ?? "";
// Without FORGEKIT_TEST_MYSQL_URL the tests are collected as skipped, so the run's summary counts them.
describe.skipIf(myUrl === "")("MySQL", () => {
  faultSuite("MySQL", myUrl, { database: mysqlFaultDatabase, store: (url) => kyselyStore(mysql(url)) });
});
