/** Types of publish-config.mjs. */
export declare const SOURCE_CONDITION: string;
export declare function publishedExports(exports: Record<string, unknown> | undefined): Record<string, unknown>;
