/**
 * CPU used so far by the local database servers the tests talk to (PostgreSQL with its exited
 * backends, MariaDB / MySQL, Redis), read from /proc: { name: milliseconds }. Empty where /proc is absent.
 */
import { readdirSync, readFileSync } from "node:fs";

const SERVERS = new Map([
  ["postgres", "PostgreSQL"],
  ["mariadbd", "MariaDB"],
  ["mysqld", "MySQL"],
  ["redis-server", "Redis"],
]);

/** @returns {Record<string, number>} */
export function serverCpuMs() {
  /** @type {Record<string, number>} */
  const used = {};
  let entries = [];
  try {
    entries = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return used;
  }
  for (const pid of entries) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const name = SERVERS.get(comm);
      if (name === undefined) continue;
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // utime, stime, cutime, cstime (fields 14–17), in 10 ms ticks.
      const ms = (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 10;
      used[name] = (used[name] ?? 0) + ms;
    } catch {
      // the process ended while being read
    }
  }
  return used;
}
