// Types for scripts/node24.mjs (plain JS so that it runs on the old Node it replaces), for the tests.
export declare const NODE_VERSION: string;
export declare const NODE_PACKAGES: Readonly<Record<string, string>>;
export declare const STAMP_FILE: string;

export interface EnsureNodeBinOptions {
  /** The running Node's version. Default: process.versions.node. */
  nodeVersion?: string;
  /** Where the verified Node is kept. Default: AMBER_NODE_CACHE, else the user's cache folder. */
  cacheRoot?: string;
  /** The platform package. Default: this machine's. */
  pkg?: string;
  /** The pinned `sha512-…` integrity of the package's tarball. Default: NODE_PACKAGES[pkg]. */
  integrity?: string;
  /** Fetches `pkg@version` as a tarball into `dir` (created if missing); returns the tarball's path. Default: npm pack. */
  fetch?: (pkg: string, version: string, dir: string) => string;
  /** Installs a tarball file under `prefix` (as node_modules/<pkg>). Default: npm install of that file, offline. */
  install?: (tarball: string, prefix: string) => void;
  /** Hears what the launcher tells the user. Default: stderr. */
  log?: (line: string) => void;
}

/** The folder of a verified Node binary, or null when the running Node is recent enough. Throws a sentence otherwise. */
export declare function ensureNodeBin(options?: EnsureNodeBinOptions): string | null;
