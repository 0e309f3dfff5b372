/**
 * Git over HTTP, smart protocol (issue 9 §2; git's `http-protocol` documentation): info/refs with
 * the `# service=` preamble, upload-pack (clone, fetch) and receive-pack (push), authenticated by
 * `fk.git.checkCredentials` (the single source of the rules), streamed through the git CLI. The
 * project's uploads (`/<namespace>/<project>/uploads/<secret>/<filename>`, ./uploads.ts) are served
 * here too, read under the same rules as a clone.
 */
import type { Readable } from "node:stream";
import { tmpdir } from "node:os";
import { createGunzip } from "node:zlib";
import type { PushesService } from "../activity/pushes.js";
import type { UserActivityRecorder } from "../accounts/user-activity.js";
import type { ForgekitConfig } from "../config.js";
import { unavailableIn } from "../ports/store-errors.js";
import type { GitAccess, GitCredentialsService } from "../oauth/git-credentials.js";
import type { Project } from "../accounts/types.js";
import type { GitCommandOptions } from "../repositories/git-command.js";
import { describeCause } from "../http/render-error.js";
import { basicCredentials } from "./basic-auth.js";
import { runGitService } from "./git-process.js";
import { gitMessages, gitText, gitUnauthorized, gitUnavailable, roleMessage, scopeMessage } from "./messages.js";
import { FLUSH, pktLine, ReceiveCommandsTap } from "./pkt-line.js";
import { recordPushEvents, refsSnapshot } from "./push-events.js";
import { pushGuard } from "./push-guard.js";
import { matchGitRoute, requestedService } from "./route.js";
import { matchUploadRoute, uploadResponse, type UploadRoute } from "./uploads.js";
import type { GitHttpRequest, GitHttpResponse, GitHttpServer } from "./types.js";

/** What the git HTTP capability needs. */
export interface GitHttpDeps {
  config: Pick<ForgekitConfig, "store" | "repositoryStorage" | "logger" | "clock" | "defaultBranchProtection">;
  git: GitCredentialsService;
  pushes: PushesService;
  /** The git executable (default `git`). */
  gitBinary?: string;
  /** Records the activity day of a user let through to clone, fetch or push (accounts/user-activity.ts). */
  userActivity?: UserActivityRecorder;
}

/** `http-backend`'s no-cache headers (`hdr_nocache`): proxies must never serve a stale ref list. */
const NO_CACHE = { expires: "Fri, 01 Jan 1980 00:00:00 GMT", pragma: "no-cache", "cache-control": "no-cache, max-age=0, must-revalidate" };
/** `Git-Protocol` values git sends (`version=2`, colon-separated keys); anything else is dropped. */
const GIT_PROTOCOL = /^[A-Za-z0-9._=:-]{1,256}$/;
/** Longest a bookkeeping git command (refs snapshot, counts) may run. */
const BOOKKEEPING_TIMEOUT_MS = 60_000;

type Service = "git-upload-pack" | "git-receive-pack";

/** Builds the git HTTP capability (`Forgekit.gitHttp`). */
export function gitHttpService(deps: GitHttpDeps): GitHttpServer {
  const binary = deps.gitBinary ?? "git";
  const logger = deps.config.logger;
  const bookkeeping: GitCommandOptions = { binary, timeoutMs: BOOKKEEPING_TIMEOUT_MS, home: tmpdir() };

  /** The full path an upload request names (by path, or by id: `/-/project/<id>/uploads/…`; an unknown id names nothing). */
  async function uploadProjectPath(upload: UploadRoute): Promise<string> {
    if (upload.projectId === null) return upload.projectPath;
    return (await deps.config.store.projects.findById(upload.projectId))?.fullPath ?? "-/no-such-project";
  }

  async function serve(req: GitHttpRequest): Promise<GitHttpResponse> {
    const upload = matchUploadRoute(req.method, req.path);
    const route = upload === null ? matchGitRoute(req.method, req.path) : { projectPath: await uploadProjectPath(upload), endpoint: "upload" as const };
    if (route === null) return gitText(404, "Not Found");
    const service: Service | null = route.endpoint === "info/refs" ? requestedService(req.rawQuery) : route.endpoint === "upload" ? "git-upload-pack" : route.endpoint;
    const access: GitAccess = service === "git-receive-pack" ? "write" : "read";

    const credentials = basicCredentials(req.headers["authorization"]);
    const checked = await deps.git.checkCredentials({
      path: route.projectPath,
      access,
      ...(credentials ?? {}),
      ...(req.remoteAddress === undefined ? {} : { remoteAddress: req.remoteAddress }),
    });
    if (checked.isErr()) {
      // The store down, or password hashing at capacity: 503 + Retry-After, as on the API (issue #23 item 8).
      if (checked.error.code === "unavailable") return gitUnavailable(checked.error.retryAfterSeconds);
      logger.log("error", "git_http.credentials_failed", { code: checked.error.code, ...("cause" in checked.error ? describeCause(checked.error.cause) : {}) });
      return gitText(500, gitMessages.failed);
    }
    const result = checked.value;
    if (!result.allowed) {
      switch (result.reason) {
        case "credentials_required":
        case "bad_credentials":
          return gitUnauthorized();
        case "rate_limited":
          return gitText(429, `Too many failed sign-in attempts. Try again in ${result.retryAfter ?? 60} seconds.`, { "retry-after": String(result.retryAfter ?? 60) });
        case "not_found":
        case "oauth_not_allowed":
          return gitText(404, gitMessages.projectNotFound);
        case "insufficient_scope":
          return gitText(403, scopeMessage(access));
        case "forbidden":
          return gitText(403, roleMessage(access));
        case "read_only":
          return gitText(403, gitMessages.readOnly);
      }
    }
    // Reference: a dumb or unknown service is checked after authentication (`check_command_existence!`).
    if (service === null) return gitText(403, gitMessages.commandNotAllowed);
    // A user let through to clone, fetch or push was active today (reference GitHttpController
    // `log_user_activity`; a push also through its post-receive event). Not awaited.
    if (result.user !== null && upload === null) deps.userActivity?.record(result.user);
    const located = await repositoryDirectory(result.project);
    if (located === "failed") return gitText(500, gitMessages.failed);
    if (located === "missing") return upload === null ? gitText(404, gitMessages.noRepository) : gitText(404, "Not Found");
    const { directory } = located;
    if (upload !== null) return (await uploadResponse(directory, upload, req.method.toUpperCase() === "HEAD")) ?? gitText(404, "Not Found");

    const protocolHeader = req.headers["git-protocol"];
    const protocol = protocolHeader !== undefined && GIT_PROTOCOL.test(protocolHeader) ? protocolHeader : undefined;
    const name = service === "git-upload-pack" ? "upload-pack" : "receive-pack";

    const advertisement = { "content-type": `application/x-git-${name}-advertisement`, ...NO_CACHE };
    if (route.endpoint === "info/refs" && req.method.toUpperCase() === "HEAD") return { status: 200, headers: advertisement, body: "" };
    if (route.endpoint === "info/refs") {
      // Protocol v2 starts with its capability list; v0/v1 with the service line (http-backend.c `get_info_refs`).
      const v2 = protocol !== undefined && protocol.split(":").includes("version=2");
      const started = await runGitService({
        binary, service: name, directory, advertise: true, logger,
        ...(protocol === undefined ? {} : { protocol }),
        ...(v2 ? {} : { preamble: Buffer.concat([pktLine(`# service=${service}\n`), FLUSH]) }),
        ...(req.signal === undefined ? {} : { signal: req.signal }),
      });
      if (!started.ok) return gitText(500, gitMessages.failed);
      return { status: 200, headers: advertisement, body: started.body };
    }

    if (req.headers["content-type"]?.split(";")[0]?.trim().toLowerCase() !== `application/x-git-${name}-request`) return gitText(415, gitMessages.unsupportedMediaType);
    const encoding = req.headers["content-encoding"]?.trim().toLowerCase();
    if (encoding !== undefined && encoding !== "" && encoding !== "identity" && encoding !== "gzip" && encoding !== "x-gzip") return gitText(415, gitMessages.unsupportedEncoding);
    let stdin: Readable = encoding === "gzip" || encoding === "x-gzip" ? req.body.pipe(createGunzip()) : req.body;
    if (stdin !== req.body) req.body.on("error", (error) => stdin.destroy(error));

    let after: (() => Promise<void>) | undefined;
    if (name === "receive-pack" && result.user !== null) {
      // The tap listens before anything is awaited, so a body that fails meanwhile (bad gzip) is its error, not an uncaught one.
      const tap = new ReceiveCommandsTap();
      stdin.on("error", (error) => tap.destroy(error));
      stdin = stdin.pipe(tap);
      // Kept as `tap.errored` for runGitService, which starts after the snapshot.
      tap.on("error", () => undefined);
      const before = await refsSnapshot(bookkeeping, directory);
      const { project, user } = result;
      after = () => recordPushEvents({ git: bookkeeping, directory, project, user, before, commands: tap.commands(), store: deps.config.store, pushes: deps.pushes, logger, adopted: guard?.adopted });
    }
    // After the tap is listening: nothing may be awaited before it (a body that fails meanwhile would never end git's stdin).
    const guard = name === "receive-pack" ? await pushGuard(deps.config, result.project, result.user, bookkeeping, directory) : undefined;
    const started = await runGitService({
      binary, service: name, directory, advertise: false, logger, stdin,
      ...(protocol === undefined ? {} : { protocol }),
      ...(req.signal === undefined ? {} : { signal: req.signal }),
      ...(after === undefined ? {} : { after }),
      ...(guard === undefined ? {} : { guard }),
    });
    if (!started.ok) return started.clientError ? gitText(400, gitMessages.badRequest) : gitText(500, gitMessages.failed);
    return { status: 200, headers: { "content-type": `application/x-git-${name}-result`, ...NO_CACHE }, body: started.body };
  }

  /** The repository's directory when it exists on the project's shard; "missing" when it does not; "failed" when the storage failed. */
  async function repositoryDirectory(project: Project): Promise<{ directory: string } | "missing" | "failed"> {
    const storage = deps.config.repositoryStorage;
    const ref = { kind: "project" as const, id: project.id };
    if (storage.localPath === undefined) return "missing";
    try {
      if (!(await storage.exists(project.repositoryStorage, ref))) return "missing";
      return { directory: storage.localPath(project.repositoryStorage, ref) };
    } catch (error) {
      logger.log("error", "git_http.storage_failed", { projectId: project.id, message: error instanceof Error ? error.message : String(error) });
      return "failed";
    }
  }

  return {
    matches: (method, path) => matchGitRoute(method, path) !== null || matchUploadRoute(method, path) !== null,
    async handle(req) {
      try {
        return await serve(req);
      } catch (error) {
        const down = unavailableIn(error);
        if (down !== undefined) return gitUnavailable(down.retryAfterSeconds);
        logger.log("error", "git_http.failed", { message: error instanceof Error ? error.message : String(error) });
        return gitText(500, gitMessages.failed);
      }
    },
  };
}

