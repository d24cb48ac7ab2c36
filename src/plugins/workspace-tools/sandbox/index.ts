// The OS sandbox every shell command of the workspace tools runs in (see docs/sandbox.md).
export { bwrapArgs, type BwrapFindings } from './bwrap-args.ts';
export { hiddenPaths, type HiddenPaths } from './hidden-paths.ts';
export { createProtectedEntriesCache, findProtectedEntries, type ProtectedEntries, type ProtectedEntriesOptions } from './protected-entries.ts';
export { sandboxEnv } from './sandbox-env.ts';
export { sandboxLaunch, type Launch, type LaunchPlan, type SandboxLabel, type SandboxLaunchInput } from './sandbox-launch.ts';
export { BWRAP_TRIAL, bwrapFix, findBwrap, probeSandbox, type ProbeChild, type SandboxProbe, type SandboxProbeOptions } from './sandbox-probe.ts';
export { sandboxProfile, type SandboxProfile } from './sandbox-profile.ts';
export { seatbeltProfile, type SeatbeltOptions } from './seatbelt-profile.ts';
