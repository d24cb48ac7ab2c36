import { useId, useState } from 'react';
import type { OfferedTool } from '../../shared/tools/index.ts';
import { entryTool, prefixesOf, setToolEntries, toolList } from './schedule-builder.ts';
import './tool-picker.css';

/** Tools a task may not list (main refuses them too): the task tool's children would have no one to ask. */
const NOT_FOR_TASKS = new Set(['task']);

/** The tools a task's picker shows: those offered (not the task tool), then the task's own entries no one offers now. */
export function pickableTools(offered: readonly OfferedTool[], entries: readonly string[]): OfferedTool[] {
  const shown = offered.filter((t) => !NOT_FOR_TASKS.has(t.name));
  const gone = [...new Set(entries.map(entryTool))].filter((name) => !shown.some((t) => t.name === name));
  return [
    ...shown,
    ...gone.map((name) => ({
      name,
      description: '',
      readOnly: false,
      shell: false,
      plugin: null,
      available: false,
      reason: 'No plugin offers it now.',
    })),
  ];
}

/** Why the picked tools cannot be saved (a tool whose plugin is off), or null. */
export function toolsProblem(offered: readonly OfferedTool[], entries: readonly string[]): string | null {
  for (const name of new Set(entries.map(entryTool))) {
    const tool = pickableTools(offered, entries).find((t) => t.name === name);
    if (tool && !tool.available) return `${name} cannot run now: ${tool.reason ?? 'its plugin is off.'} Turn it on, or clear ${name}.`;
  }
  return null;
}

interface Props {
  offered: readonly OfferedTool[];
  /** The task's tool list: names, and `bash:npm test` for a shell tool's prefixes. */
  entries: readonly string[];
  onChange(entries: string[]): void;
}

/**
 * The tools a task may use without asking, picked from those the agent can be offered: a checkbox each with its
 * plugin, a plugin's that is off marked so; a shell tool takes the command prefixes it may run.
 */
export function ToolPicker({ offered, entries, onChange }: Props) {
  const id = useId();
  const groups = byPlugin(pickableTools(offered, entries));
  return (
    <fieldset className="tool-picker" aria-describedby={`${id}-hint`}>
      <legend>Tools it may use without asking</legend>
      {groups.length === 0 && <p className="hint">No tool is offered now: turn on a plugin that offers tools.</p>}
      {groups.map((group, i) => (
        <div key={group.key} className={`tool-group${group.off ? ' is-off' : ''}`} data-testid="tool-group" data-plugin={group.key}>
          <p className="tool-group-name" id={`${id}-group-${i}`}>
            <strong>{group.name}</strong>
            {group.off && <span className="tool-group-off"> · off: {group.off}</span>}
          </p>
          <ul className="tool-picker-list">
            {group.tools.map((tool) => (
              <ToolChoice key={tool.name} tool={tool} groupId={`${id}-group-${i}`} entries={entries} onChange={onChange} />
            ))}
          </ul>
        </div>
      ))}
      <p className="hint" id={`${id}-hint`}>
        Nobody is asked during a run: a tool not picked is never run, and a shell tool runs only command lines that start with a prefix given here.
      </p>
    </fieldset>
  );
}

interface ToolGroup {
  key: string;
  name: string;
  /** Why its tools cannot run now (its plugin is off), when none of them can. */
  off: string | null;
  tools: OfferedTool[];
}

/** The tools by where they come from: Amber's own first, then each plugin in the order listed. */
function byPlugin(tools: readonly OfferedTool[]): ToolGroup[] {
  const groups = new Map<string, ToolGroup>();
  for (const tool of tools) {
    const key = tool.plugin?.id ?? (tool.available ? 'amber' : 'gone');
    const name = tool.plugin?.name ?? (tool.available ? 'Amber' : 'Not offered now');
    const group = groups.get(key) ?? { key, name, off: null, tools: [] };
    group.tools.push(tool);
    groups.set(key, group);
  }
  for (const group of groups.values()) {
    const reasons = new Set(group.tools.map((t) => (t.available ? null : t.reason)));
    group.off = reasons.size === 1 && !reasons.has(null) ? ([...reasons][0] ?? null) : null;
  }
  return [...groups.values()];
}

function ToolChoice({
  tool,
  groupId,
  entries,
  onChange,
}: {
  tool: OfferedTool;
  groupId: string;
  entries: readonly string[];
  onChange(entries: string[]): void;
}) {
  const id = useId();
  const checked = entries.some((e) => entryTool(e) === tool.name);
  const [prefixText, setPrefixText] = useState(() => prefixesOf(entries, tool.name).join(', '));
  const notes = [tool.readOnly ? 'reads only' : null, tool.shell ? 'runs commands' : null, tool.available ? null : 'off'].filter((n) => n !== null);
  return (
    <li className={`tool-choice${tool.available ? '' : ' is-off'}`} data-testid="tool-choice" data-tool={tool.name}>
      <label className="tool-choice-label" title={tool.description || undefined}>
        <input
          type="checkbox"
          checked={checked}
          aria-describedby={`${groupId} ${id}-about`}
          onChange={(e) => onChange(setToolEntries(entries, tool.name, e.target.checked, tool.shell ? toolList(prefixText) : []))}
        />
        <span className="mono">{tool.name}</span>
      </label>
      <span className="hint" id={`${id}-about`}>
        {notes.join(' · ')}
      </span>
      {tool.shell && checked && (
        <input
          className="input mono tool-choice-prefixes"
          aria-label={`Command prefixes ${tool.name} may run`}
          value={prefixText}
          placeholder="npm test, git status"
          onChange={(e) => {
            setPrefixText(e.target.value);
            onChange(setToolEntries(entries, tool.name, true, toolList(e.target.value)));
          }}
        />
      )}
    </li>
  );
}
