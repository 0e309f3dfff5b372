/** Types of test-summary.mjs. */
export declare function summarize(reportPath: string): { passed: number; failed: number; skipped: number };
export declare const SERVICES: { name: string; variable: string; title: RegExp }[];
export declare function skippedForServices(reportPath: string, env: Record<string, string | undefined>): { name: string; variable: string; skipped: number }[];
export declare function failures(reportPath: string, root?: string): { name: string; message: string }[];
