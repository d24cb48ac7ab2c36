/** The chip a shell call's card shows for how it was confined: its text, its chip class and a tooltip. */
export interface SandboxChip {
  label: string;
  className: string;
  title: string;
}

const CHIPS: Record<string, SandboxChip> = {
  read: { label: 'sandboxed (read)', className: 'chip', title: 'Ran in the OS sandbox: nothing writable but a private /tmp, no network, secrets hidden.' },
  write: {
    label: 'sandboxed (write)',
    className: 'chip',
    title: 'Ran in the OS sandbox: only the workspace writable, not its protected paths; secrets hidden.',
  },
  yolo: {
    label: 'sandboxed (yolo)',
    className: 'chip',
    title: 'Ran in the OS sandbox: only the workspace writable, not its protected paths; network on; secrets hidden.',
  },
  unsandboxed: {
    label: 'not sandboxed',
    className: 'chip chip-awaiting',
    title: 'Ran outside the sandbox, with your full rights: you chose this for this one command.',
  },
  none: { label: 'not sandboxed', className: 'chip chip-awaiting', title: 'Ran without a sandbox: this system has none Amber can use.' },
  unavailable: {
    label: 'no sandbox: not run',
    className: 'chip chip-error',
    title: 'Did not run: the sandbox could not start. The result says why and how to fix it.',
  },
};

/**
 * The chip for a tool result's `details.sandbox` (the bash tool's: read, write, yolo, unsandboxed, none,
 * unavailable), or null for a result that says nothing about a sandbox. `details` is unchecked plugin data.
 */
export function sandboxChip(details: unknown): SandboxChip | null {
  if (typeof details !== 'object' || details === null) return null;
  const sandbox = (details as { sandbox?: unknown }).sandbox;
  return typeof sandbox === 'string' && Object.hasOwn(CHIPS, sandbox) ? CHIPS[sandbox]! : null;
}
