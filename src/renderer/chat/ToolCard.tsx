import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { CopyButton, Icon } from '../ui/index.ts';
import { InlineApproval } from './InlineApproval.tsx';
import { InlineElicitation } from './InlineElicitation.tsx';
import { outputPreview } from './output-preview.ts';
import { StoredImages } from './StoredImage.tsx';
import { RepoMapText } from './RepoMapText.tsx';
import { sandboxChip } from './sandbox-chip.ts';
import { exitCodeOf, toolSummary } from './tool-summary.ts';
import type { ToolCallView } from './transcript-model.ts';
import { SubagentRows } from './SubagentRows.tsx';
import './tool-card.css';

const STATUS_LABEL: Record<ToolCallView['status'], string> = {
  streaming: 'preparing',
  pending: 'waiting',
  awaiting: 'needs approval',
  running: 'running',
  ok: 'done',
  error: 'failed',
  denied: 'denied',
};

function formatArgs(tool: ToolCallView): string {
  if (tool.args === undefined) return tool.argsText ?? '';
  try {
    return JSON.stringify(tool.args, null, 2);
  } catch {
    return String(tool.args);
  }
}

/** Seconds since the call started running, ticking while it runs; null before it runs. */
function useElapsed(running: boolean): number | null {
  const startedAt = useRef<number | null>(null);
  const [, tick] = useState(0);
  if (running && startedAt.current === null) startedAt.current = Date.now();
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, [running]);
  return running && startedAt.current !== null ? Math.floor((Date.now() - startedAt.current) / 1000) : null;
}

const elapsedText = (s: number) => (s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`);

/**
 * One tool call: a readable summary (the command line, the file and its change size…), its status, how a
 * shell call was confined, elapsed time while it runs and the exit code once done; the JSON arguments when
 * expanded; its output (long output folded until asked for), with a copy button.
 */
export const ToolCard = memo(function ToolCard({ tool }: { tool: ToolCallView }) {
  const [showArgs, setShowArgs] = useState(false);
  const [showAll, setShowAll] = useState(false);
  const elapsed = useElapsed(tool.status === 'running');
  // While a call runs its newest output matters (a build or test log streaming in): fold to the tail. One long
  // line (minified JSON) is folded too, so the page never lays out hundreds of kilobytes it was not asked for.
  const running = tool.status === 'running';
  const shown = useMemo(() => outputPreview(tool.output, { running, showAll }), [tool.output, running, showAll]);
  const summary = toolSummary(tool);
  const sandbox = sandboxChip(tool.details);
  const exitCode = exitCodeOf(tool.details);
  return (
    <div className={`tool-card tool-${tool.status}`} data-testid="tool-card" data-status={tool.status} data-tool={tool.name}>
      <button type="button" className="tool-head" onClick={() => setShowArgs((v) => !v)} aria-expanded={showArgs} title={summary.text || undefined}>
        <Icon name="tool" />
        <span className="tool-name">{tool.name}</span>
        <span className="tool-summary" data-testid="tool-summary">
          {summary.text}
        </span>
        {summary.change && (
          <span className="tool-change" data-testid="tool-change" aria-label={`${summary.change.added} lines added, ${summary.change.removed} removed`}>
            <span className="tool-added">+{summary.change.added}</span> <span className="tool-removed">−{summary.change.removed}</span>
          </span>
        )}
        {sandbox && (
          <span className={sandbox.className} title={sandbox.title} data-testid="tool-sandbox">
            {sandbox.label}
          </span>
        )}
        {elapsed !== null && (
          <span className="tool-elapsed" data-testid="tool-elapsed" aria-label={`running for ${elapsed} seconds`}>
            {elapsedText(elapsed)}
          </span>
        )}
        {exitCode !== null ? (
          <span className={`chip ${exitCode === 0 ? 'chip-ok' : 'chip-error'}`} data-testid="tool-exit" title={`The command exited with code ${exitCode}.`}>
            exit {exitCode}
          </span>
        ) : (
          <span className={`chip chip-${tool.status}`}>
            {(tool.status === 'running' || tool.status === 'streaming') && <span className="spinner" aria-hidden="true" />}
            {STATUS_LABEL[tool.status]}
          </span>
        )}
        <Icon name="chevronDown" className={showArgs ? 'rot-180' : ''} />
      </button>
      {showArgs && <pre className="tool-args">{formatArgs(tool) || '(no arguments)'}</pre>}
      {tool.status === 'awaiting' && <InlineApproval toolCallId={tool.id} />}
      {tool.status === 'running' && <InlineElicitation toolName={tool.name} />}
      {tool.name === 'task' && <SubagentRows tool={tool} />}
      {tool.output && (
        <div className="tool-output">
          <CopyButton text={tool.output} label="Copy the tool output" testId="copy-tool-output" className="tool-copy" />
          {tool.name === 'repo_map' && tool.status === 'ok' ? <RepoMapText text={shown.text} /> : <pre data-testid="tool-output-text">{shown.text}</pre>}
          {shown.cut && (
            <p className="hint tool-output-cut" data-testid="tool-output-cut">
              {shown.cut}
            </p>
          )}
          {shown.folded && (
            <button type="button" className="link-btn" data-testid="tool-output-more" onClick={() => setShowAll((v) => !v)}>
              {showAll ? 'Show less' : shown.showAll}
            </button>
          )}
        </div>
      )}
      {tool.images && <StoredImages images={tool.images} label={`Image from ${tool.name}`} />}
    </div>
  );
});
