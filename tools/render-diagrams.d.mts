/** Types of render-diagrams.mjs. */
export declare const DIAGRAMS: string;
export declare function stampOf(svg: string): string | undefined;
export declare function sourceHash(source: string): string;
