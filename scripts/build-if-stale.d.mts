// Types for scripts/build-if-stale.mjs (plain JS so that npm scripts run it without a loader), for the tests.
/** True when out/ under `root` holds a full build started after its newest input was saved. */
export declare function isFresh(root?: string): boolean;
/** Builds (with `run`, default electron-vite) and stamps out/ when it succeeds; false when it fails. */
export declare function build(root?: string, run?: (root: string) => boolean, now?: () => number): boolean;
