/** Small pieces both stand-ins share: listening, JSON answers, credentials, lists built lazily. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A list whose items are made on demand, so a bench can page through 20 000 comments without holding them. */
export interface LazyList<T> {
  readonly length: number;
  at(index: number): T;
}

/** A list over an array. */
export const arrayList = <T>(items: readonly T[]): LazyList<T> => ({ length: items.length, at: (i) => items[i] as T });

/** A generated list: `make(i)` for i in 0..length-1. */
export const generatedList = <T>(length: number, make: (index: number) => T): LazyList<T> => ({ length, at: make });

/** `a` then `b`. */
export const concatLists = <T>(a: LazyList<T>, b: LazyList<T>): LazyList<T> => ({
  length: a.length + b.length,
  at: (i) => (i < a.length ? a.at(i) : b.at(i - a.length)),
});

/** The items `from..to` of a list. */
export function slice<T>(list: LazyList<T>, from: number, to: number): T[] {
  const out: T[] = [];
  for (let i = Math.max(0, from); i < Math.min(list.length, to); i++) out.push(list.at(i));
  return out;
}

/** Writes a JSON answer. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

/**
 * Answers one page of `list` the forge's way: `per_page` (default 30, at most 100) and `page`, with
 * a `Link` header of absolute URLs (`next`, `last`, `first`, `prev`) on `origin`.
 */
export function sendPage(res: ServerResponse, origin: string, url: URL, list: LazyList<unknown>, headers: Record<string, string>): void {
  const perPage = Math.min(100, Math.max(1, Number.parseInt(url.searchParams.get("per_page") ?? "30", 10) || 30));
  const pageNo = Math.max(1, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1);
  const last = Math.max(1, Math.ceil(list.length / perPage));
  const link = (n: number, rel: string) => {
    const target = new URL(url.pathname, origin);
    url.searchParams.forEach((v, k) => target.searchParams.set(k, v));
    target.searchParams.set("per_page", String(perPage));
    target.searchParams.set("page", String(n));
    return `<${target.href}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (pageNo < last) links.push(link(pageNo + 1, "next"), link(last, "last"));
  if (pageNo > 1) links.push(link(1, "first"), link(pageNo - 1, "prev"));
  sendJson(res, 200, slice(list, (pageNo - 1) * perPage, pageNo * perPage), links.length === 0 ? headers : { ...headers, link: links.join(", ") });
}

/** The credentials of a request: a Bearer / `token` value, or Basic user + password. */
export function credentialsOf(req: IncomingMessage): { kind: "token"; token: string } | { kind: "basic"; username: string; password: string } | null {
  const header = req.headers.authorization;
  if (header === undefined) return null;
  const [scheme = "", value = ""] = header.split(/\s+/, 2);
  if (/^(bearer|token)$/i.test(scheme)) return { kind: "token", token: value };
  if (/^basic$/i.test(scheme)) {
    const decoded = Buffer.from(value, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0) return null;
    return { kind: "basic", username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
  }
  return null;
}

/** One request the stand-in answered (no credentials are recorded). */
export interface StandInRequest {
  method: string;
  path: string;
  query: string;
  status: number;
}

/** A started stand-in server. */
export interface Listening {
  server: Server;
  origin: string;
  close(): Promise<void>;
}

/** Starts `handler` on 127.0.0.1 at a free port, recording each request in `log`. */
export async function listen(handler: (req: IncomingMessage, res: ServerResponse, url: URL) => void | Promise<void>, log: StandInRequest[]): Promise<Listening> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    res.on("finish", () => log.push({ method: req.method ?? "GET", path: url.pathname, query: url.search, status: res.statusCode }));
    Promise.resolve(handler(req, res, url)).catch(() => {
      if (!res.headersSent) sendJson(res, 500, { message: "stand-in failure" });
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A deterministic timestamp: `base` plus `minutes`. */
export const minutesAfter = (base: Date, minutes: number): string => new Date(base.getTime() + minutes * 60_000).toISOString();
