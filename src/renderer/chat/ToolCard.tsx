import { memo, useState } from 'react';
import { Icon } from '../ui/index.ts';
import { sandboxChip } from './sandbox-chip.ts';
import type { ToolCallView } from './transcript-model.ts';

const STATUS_LABEL: Record<ToolCallView['status'], string> = {
  streaming: 'preparing',
  pending: 'waiting',
  awaiting: 'needs approval',
  running: 'running',
  ok: 'done',
  error: 'failed',
  denied: 'denied',
};
const PREVIEW_LINES = 12;

function formatArgs(tool: ToolCallView): string {
  if (tool.args === undefined) return tool.argsText ?? '';
  try {
    return JSON.stringify(tool.args, null, 2);
  } catch {
    return String(tool.args);
  }
}

/** One tool call: name, status, how a shell call was confined, arguments, and its output (long output folded until asked for). */
export const ToolCard = memo(function ToolCard({ tool }: { tool: ToolCallView }) {
  const [showArgs, setShowArgs] = useState(false);
  const [showAll, setShowAll] = useState(false);
  const args = formatArgs(tool);
  const lines = tool.output.split('\n');
  const long = lines.length > PREVIEW_LINES;
  // While a call runs its newest output matters (a build or test log streaming in): fold to the tail.
  const preview = tool.status === 'running' ? lines.slice(-PREVIEW_LINES) : lines.slice(0, PREVIEW_LINES);
  const output = long && !showAll ? preview.join('\n') : tool.output;
  const summary = args.replace(/\s+/g, ' ').slice(0, 90);
  const sandbox = sandboxChip(tool.details);
  return (
    <div className={`tool-card tool-${tool.status}`} data-testid="tool-card" data-status={tool.status} data-tool={tool.name}>
      <button type="button" className="tool-head" onClick={() => setShowArgs((v) => !v)} aria-expanded={showArgs}>
        <Icon name="tool" />
        <span className="tool-name">{tool.name}</span>
        <span className="tool-summary">{summary}</span>
        {sandbox && (
          <span className={sandbox.className} title={sandbox.title} data-testid="tool-sandbox">
            {sandbox.label}
          </span>
        )}
        <span className={`chip chip-${tool.status}`}>
          {(tool.status === 'running' || tool.status === 'streaming') && <span className="spinner" aria-hidden="true" />}
          {STATUS_LABEL[tool.status]}
        </span>
        <Icon name="chevronDown" className={showArgs ? 'rot-180' : ''} />
      </button>
      {showArgs && <pre className="tool-args">{args || '(no arguments)'}</pre>}
      {tool.output && (
        <div className="tool-output">
          <pre>{output}</pre>
          {long && (
            <button type="button" className="link-btn" onClick={() => setShowAll((v) => !v)}>
              {showAll ? 'Show less' : `Show all ${lines.length} lines`}
            </button>
          )}
        </div>
      )}
    </div>
  );
});
