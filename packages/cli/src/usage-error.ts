/** A mistake in the command line itself (unknown command or option, malformed value): exit code 2. */
export class UsageError extends Error {
  /** `command` is the command whose usage line is shown with the error (e.g. "users create"). */
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(message);
    this.name = "UsageError";
  }
}
