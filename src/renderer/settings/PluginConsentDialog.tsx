import { useEffect, useRef } from 'react';
import type { PluginView } from '../../shared/api/index.ts';
import { Icon, Modal } from '../ui/index.ts';

/** What each kind of contribution lets a plugin do in Amber, for the user deciding whether to run it. */
const KIND_POWERS: Record<PluginView['declares'][number], string> = {
  tool: 'tools the agent can call',
  promptBlock: 'text added to every prompt',
  statusSegment: 'status bar segments',
  panel: 'panels with buttons',
  provider: 'model providers (your messages go through it)',
  wallet: 'wallet balances',
  allowance: 'spending allowances (it sees each model request)',
  command: 'slash commands',
  hook: 'hooks that can change your messages, the prompt, tool calls and their results',
  method: 'methods Amber itself calls (it answers Amber, not the model)',
};

/**
 * Asked once, the first time the user switches on a plugin they added: what a plugin can do on this
 * computer, and what it adds to Amber when that is known. Cancel is the default answer.
 */
export function PluginConsentDialog({ plugin, busy, onConfirm, onCancel }: { plugin: PluginView; busy: boolean; onConfirm: () => void; onCancel: () => void }) {
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  return (
    // Escape is Cancel, and Settings underneath does not close on the same key.
    <Modal
      role="alertdialog"
      className="modal plugin-consent"
      labelledBy="plugin-consent-title"
      describedBy="plugin-consent-rights"
      testId="plugin-consent"
      onEscape={onCancel}
    >
      <div className="modal-head">
        <span className="modal-icon">
          <Icon name="alert" size={18} />
        </span>
        <div>
          <h2 id="plugin-consent-title">Turn on {plugin.name}?</h2>
          <p className="muted">A plugin you added, version {plugin.version}. Amber asks once, before it first runs.</p>
        </div>
      </div>
      <div id="plugin-consent-rights" data-testid="plugin-consent-rights">
        <p>It is a program, and it runs with your rights, like any program you start. It can:</p>
        <ul className="consent-list">
          <li>read and change your files;</li>
          <li>use the network;</li>
          <li>run other programs.</li>
        </ul>
        <p className="muted small">
          Amber runs it in a process of its own, checks everything it sends and never lets its code into this window, so it cannot take Amber down — but Amber
          cannot limit what it does on your computer.
        </p>
      </div>
      <p data-testid="plugin-consent-adds">
        {plugin.declares.length > 0
          ? `In Amber it adds ${plugin.declares.map((k) => KIND_POWERS[k]).join(', ')}.`
          : 'What it adds to Amber (tools, panels, commands…) is listed here once it has run.'}
      </p>
      <p>
        <strong>Turn it on only if you trust where it came from.</strong>
      </p>
      <div className="modal-actions">
        <span className="spacer" />
        <button ref={cancel} type="button" className="btn" disabled={busy} onClick={onCancel} data-testid="plugin-consent-cancel">
          Cancel
        </button>
        <button type="button" className="btn btn-primary" disabled={busy} onClick={onConfirm} data-testid="plugin-consent-confirm">
          Turn on {plugin.name}
        </button>
      </div>
    </Modal>
  );
}
