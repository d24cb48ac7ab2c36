import type { StoredPolicyRule } from '../../shared/agent/index.ts';
import { Icon } from '../ui/index.ts';

/** How far a command prefix rule reaches: the worst class of line approved under it. */
const CLASS_REACH = {
  read_only: 'read-only ones',
  write: 'including ones that write',
  unknown: 'including ones that cannot be judged',
  destructive: 'destructive ones too',
} as const;
const WHEN = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });

/** What a rule allows or denies, as one line: the tool, the folder, the command prefix. */
export function describeRule(rule: StoredPolicyRule): string {
  if (rule.command !== undefined) return `${rule.tool}: lines starting “${rule.command}” (${CLASS_REACH[rule.class ?? 'write']})`;
  if (rule.tool !== undefined && rule.folder !== undefined) return `${rule.tool} in ${rule.folder}`;
  return rule.tool ?? `anything in ${rule.folder}`;
}

/** Where a rule holds and where it came from: a conversation (by title), Settings, a command, or an older version. */
function describeOrigin(rule: StoredPolicyRule, titles: Record<string, string | null>): string {
  const where = rule.workspace !== undefined ? `In ${rule.workspace}` : 'Everywhere';
  const source = rule.source;
  if (!source) return `${where} · stored by an earlier version`;
  let from: string;
  if (source.via === 'approval') {
    const title = source.sessionId !== undefined ? titles[source.sessionId] : undefined;
    from = title
      ? `an answer in “${title}”`
      : title === null
        ? 'an answer in a deleted conversation'
        : title === ''
          ? 'an answer in an untitled conversation'
          : 'an answer';
  } else from = source.via === 'settings' ? 'Settings' : 'a command';
  return `${where} · from ${from}, ${WHEN.format(source.at)}`;
}

/** The stored allow/deny rules, each with where it holds, where it came from, and a button that removes it. */
export function PolicyRuleList({
  rules,
  titles,
  onRemove,
}: {
  rules: readonly StoredPolicyRule[];
  titles: Record<string, string | null>;
  onRemove: (rule: StoredPolicyRule) => void;
}) {
  return (
    <div className="rule-list" data-testid="policy-rules">
      {rules.map((rule) => {
        const what = describeRule(rule);
        const origin = describeOrigin(rule, titles);
        return (
          <div key={rule.id} className="rule-row" data-testid="policy-rule" data-rule-id={rule.id}>
            <span className={`chip ${rule.effect === 'deny' ? 'chip-error' : 'chip-ok'}`}>{rule.effect}</span>
            <div className="rule-body">
              <span className="rule-text" title={what}>
                {what}
              </span>
              <span className="rule-origin" data-testid="policy-rule-origin" title={origin}>
                {origin}
              </span>
            </div>
            <button type="button" className="icon-btn" aria-label={`Remove the rule ${rule.effect} ${what} (${origin})`} onClick={() => onRemove(rule)}>
              <Icon name="trash" size={14} />
            </button>
          </div>
        );
      })}
    </div>
  );
}
