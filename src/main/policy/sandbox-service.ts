import type { PolicyMode } from '../../shared/agent/index.ts';
import { Emitter, type Event } from '../../shared/emitter.ts';
import type { ShellSandbox } from '../../shared/tools/index.ts';
import type { SettingsService } from '../settings/index.ts';
import { probeSandbox, sandboxFix, type SandboxStatus } from './sandbox-probe.ts';
import { sandboxProfile } from './sandbox-profile.ts';

export interface SandboxServiceOptions {
  settings: SettingsService;
  /** Whether a sandbox can start here; asked once. Default: the OS's answer (probeSandbox). */
  probe?: () => Promise<SandboxStatus>;
  /** For what to tell the user when a sandbox that probed fine later fails. Default: this OS. */
  platform?: NodeJS.Platform;
}

/** What changed: the global state (`sessionId` null: availability or the network switch) or one conversation's choice. */
export interface SandboxChange {
  sessionId: string | null;
}

/**
 * The shell sandbox as main sees it: whether one can start here (probed once; a plugin that later fails to
 * start one turns it off for the rest of the process), and the network setting of write mode — a global
 * switch and each conversation's own choice, which wins. Builds the profile each shell call is sent with.
 */
export class SandboxService {
  readonly #settings: SettingsService;
  readonly #probe: () => Promise<SandboxStatus>;
  readonly #platform: NodeJS.Platform;
  readonly #changed = new Emitter<SandboxChange>((e) => console.error('A sandbox listener failed', e));
  #status: SandboxStatus | null = null;
  #probing: Promise<SandboxStatus> | null = null;

  readonly onDidChange: Event<SandboxChange> = this.#changed.event;

  constructor(options: SandboxServiceOptions) {
    this.#settings = options.settings;
    this.#probe = options.probe ?? (() => probeSandbox());
    this.#platform = options.platform ?? process.platform;
  }

  /** Whether a sandbox can start: probes on the first call only. Never rejects. */
  status(): Promise<SandboxStatus> {
    this.#probing ??= Promise.resolve()
      .then(() => this.#probe())
      .catch(
        (e: unknown): SandboxStatus => ({
          available: false,
          reason: `Checking for a sandbox failed: ${e instanceof Error ? e.message : String(e)}`,
          fix: sandboxFix(this.#platform),
        }),
      )
      .then((probed) => {
        // A failure reported while the probe ran stands.
        this.#status ??= probed;
        return this.#status;
      });
    return this.#probing;
  }

  /** The last known status; null until the probe has answered. */
  current(): SandboxStatus | null {
    return this.#status;
  }

  /**
   * A sandbox failed to start although the probe said it could (the plugin reported `unavailable`): from now
   * on none is assumed, so every command that is not read-only asks. Announced once.
   */
  markUnavailable(detail: string): void {
    if (this.#status?.available === false) return;
    const said = detail.trim().replace(/\s+/g, ' ').slice(0, 300);
    this.#status = {
      available: false,
      reason: `The sandbox could not start when a command ran${said ? `: ${said}` : '.'}`,
      fix: sandboxFix(this.#platform),
    };
    this.#probing = Promise.resolve(this.#status);
    this.#changed.fire({ sessionId: null });
  }

  /** The global switch: whether commands in write mode may use the network (off unless turned on). */
  network(): boolean {
    return this.#settings.get('sandbox.network');
  }

  setNetwork(on: boolean): void {
    this.#settings.set('sandbox.network', on);
    this.#changed.fire({ sessionId: null });
  }

  /** The conversation's own choice (`/sandbox network on|off`), or null when it follows the global switch. */
  sessionNetwork(sessionId: string): boolean | null {
    return this.#settings.get('sandbox.network.conversation', sessionId);
  }

  setSessionNetwork(sessionId: string, on: boolean | null): void {
    this.#settings.set('sandbox.network.conversation', sessionId, on);
    this.#changed.fire({ sessionId });
  }

  /**
   * The sandbox one shell call runs in. Before the probe has answered a sandbox is assumed: the plugin then
   * tries to build one and reports when it cannot.
   */
  profile(sessionId: string, mode: PolicyMode, call: { unsandboxed?: boolean; writable?: readonly string[]; sandboxOnly?: boolean } = {}): ShellSandbox {
    return sandboxProfile({
      mode,
      network: this.sessionNetwork(sessionId) ?? this.network(),
      available: this.#status?.available ?? true,
      ...call,
    });
  }

  dispose(): void {
    this.#changed.dispose();
  }
}
