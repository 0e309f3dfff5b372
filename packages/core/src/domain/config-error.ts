/** The error an invalid configuration throws: an error type of the domain floor (imports nothing of forgekit). */

/** A configuration mistake: which field, and why. Thrown by `createForgekit` (a programming error at boot). */
export class ForgekitConfigError extends Error {
  constructor(readonly issues: { path: string; message: string }[]) {
    super(`Invalid forgekit configuration: ${issues.map((i) => `${i.path || "(root)"} ${i.message}`).join("; ")}`);
    this.name = "ForgekitConfigError";
  }
}
