/** Types of workspace-packages.mjs. */
export interface WorkspacePackage {
  dir: string;
  name: string;
  manifest: Record<string, unknown> & { name: string; private?: boolean; license?: string; keywords?: string[]; homepage?: string; bugs?: { url?: string }; repository?: unknown };
}
export declare const root: string;
export declare function workspacePackages(only?: string[]): WorkspacePackage[];
export declare function binPath(pkg: string, bin: string): string;
export declare function runNode(script: string, args: string[], cwd: string): boolean;
export declare function pnpmCommand(): string[];
