/** Who is looking at a list: a value type of the domain floor (imports nothing of forgekit). */

/** Who is looking: decides which records list filters may return. `null` = anonymous. */
export type Viewer = { userId: number; admin: boolean } | null;
