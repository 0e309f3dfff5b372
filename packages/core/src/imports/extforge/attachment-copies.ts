/**
 * The attachments of one forge import run (`attachments_import`): before a page is written (outside
 * of its transaction), `prepare` downloads the attachments its texts link to and stores them with
 * the project (imports/attachments.ts); inside the page's transaction, `rewrite` points the text at
 * the stored copies. Each URL is downloaded once per run; one that cannot be (too large, refused,
 * gone) stays a link to the forge, and the import goes on.
 */
import type { ImportRun } from "../run-kit.js";
import { ATTACHMENT_MAX_BYTES, attachmentUrls, isForgeAttachment, rewriteAttachments, storeUpload, uploadFilename, uploadUrl } from "../attachments.js";
import { externalFailureOf } from "../external-failure.js";
import type { ExtForgeClient, ExtForgeRepository } from "./types.js";

/** URLs remembered per run (a repository links far fewer attachments than this). */
const REMEMBERED_MAX = 10_000;

export class AttachmentCopies {
  readonly #stored = new Map<string, string>();
  readonly #failed = new Set<string>();
  readonly #webOrigin: string;

  private constructor(
    readonly run: ImportRun,
    readonly client: ExtForgeClient,
    readonly directory: string,
    repository: ExtForgeRepository,
  ) {
    this.#webOrigin = URL.canParse(repository.htmlUrl) ? new URL(repository.htmlUrl).origin : "https://github.com";
  }

  /** The run's attachment copies, or null when attachments are not imported (not asked for, or the storage keeps no local directory). */
  static of(run: ImportRun, client: ExtForgeClient, repository: ExtForgeRepository, enabled: boolean): AttachmentCopies | null {
    if (!enabled) return null;
    const storage = run.config.repositoryStorage;
    const directory = storage.localPath?.(run.project.repositoryStorage, { kind: "project", id: run.project.id });
    return directory === undefined ? null : new AttachmentCopies(run, client, directory, repository);
  }

  /** Downloads and stores the attachments `texts` link to that this run has not stored yet. */
  async prepare(texts: Iterable<string | null>): Promise<void> {
    for (const text of texts) {
      if (text === null || text === "") continue;
      for (const url of attachmentUrls(text, (u) => isForgeAttachment(u, this.#webOrigin))) {
        if (this.#stored.has(url) || this.#failed.has(url)) continue;
        await this.#copy(url);
      }
    }
  }

  /** `text` pointing at the stored copies. */
  rewrite(text: string): string {
    return rewriteAttachments(text, this.#stored);
  }

  async #copy(url: string): Promise<void> {
    let downloaded: { contentType: string | null; bytes: Uint8Array };
    try {
      downloaded = await this.run.job.step(`attachment ${this.#stored.size + this.#failed.size + 1}`, () => this.client.download(url, { maxBytes: ATTACHMENT_MAX_BYTES }));
    } catch (error) {
      const failure = externalFailureOf(error);
      // A rate limit or a lost connection is the run's problem (it waits or retries); anything else leaves the link.
      if (failure === undefined || failure.reason === "rate_limited" || failure.reason === "unreachable") throw error;
      this.#remember(this.#failed, url);
      this.run.config.logger.log("warn", "imports.attachment_skipped", { projectId: this.run.projectId, reason: failure.reason, message: failure.message });
      return;
    }
    const bytes = new Uint8Array(16);
    this.run.config.random.read(bytes);
    const secret = Buffer.from(bytes).toString("hex");
    const filename = uploadFilename(url, downloaded.contentType);
    await storeUpload(this.directory, secret, filename, downloaded.bytes);
    if (this.#stored.size >= REMEMBERED_MAX) this.#stored.clear();
    this.#stored.set(url, uploadUrl(this.run.config.baseUrl, this.run.project.fullPath, secret, filename));
  }

  #remember(set: Set<string>, url: string): void {
    if (set.size >= REMEMBERED_MAX) set.clear();
    set.add(url);
  }
}
