/** Types of test-summary.mjs. */
export declare function summarize(reportPath: string): { passed: number; failed: number; skipped: number };
