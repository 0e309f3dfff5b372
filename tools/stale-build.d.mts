/** Types of stale-build.mjs. */
export declare function newestSource(dir: string): number;
export declare function stale(dir: string): boolean;
export declare function ensureBuilt(names: string[]): string | undefined;
