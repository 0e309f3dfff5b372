/** Types of import-graph.mjs (run with node, imported by its test). */
export declare const CORE_SRC: string;
export declare const SVG_PATH: string;
export declare const DOC_PATH: string;
export interface CoreGraph {
  parts: { name: string; floor: string }[];
  edges: { from: string; to: string; count: number }[];
}
export declare function partOf(path: string): string;
export declare function coreParts(src?: string): CoreGraph;
export declare function renderSvg(graph: CoreGraph): string;
export declare function renderTable(graph: CoreGraph): string;
export declare function withTable(doc: string, table: string): string;
