/** Types of publish-config.mjs. */
export declare const SOURCE_CONDITION: string;
export declare const WORKSPACE_ONLY_EXPORTS: Record<string, string[]>;
export declare function publishedExports(exports: Record<string, unknown> | undefined, workspaceOnly?: string[]): Record<string, unknown>;
