import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { MAX_POLICY_RULES, PolicyRules, type PolicyRule, type ShellClass, type StoredPolicyRule } from '../../shared/agent/index.ts';
import { AmberError } from '../errors.ts';
import type { SettingsService } from '../settings/index.ts';

const RANK: Record<ShellClass, number> = { read_only: 0, write: 1, unknown: 2, destructive: 3 };

/**
 * The stored allow/deny rules, kept in one setting as a JSON list, oldest first. Every rule has an id:
 * rules stored before ids existed get one the first time they are read (written back once). Folders are
 * kept resolved. Unreadable rules throw: a lost deny rule must not turn into an allow.
 */
export class PolicyRuleBook {
  readonly #settings: SettingsService;
  readonly #newId: () => string;

  constructor(settings: SettingsService, newId: () => string = randomUUID) {
    this.#settings = settings;
    this.#newId = newId;
  }

  list(): StoredPolicyRule[] {
    // Unreadable rules throw here (the settings table's one key that refuses instead of reading as its default).
    const rules = this.#settings.get('policy.rules');
    if (rules.every((r) => r.id !== undefined)) return rules as StoredPolicyRule[];
    const named = rules.map((r) => this.#named(r));
    this.#settings.set('policy.rules', named);
    return named;
  }

  /** Replaces every rule (checked first: nothing is stored unless all fit). */
  replace(rules: readonly PolicyRule[]): StoredPolicyRule[] {
    const parsed = PolicyRules.safeParse(rules);
    if (!parsed.success) throw new AmberError('invalid_input', `Refused the tool rules: ${parsed.error.issues.map((i) => i.message).join('; ')}.`);
    const ids = new Set<string>();
    const named = parsed.data.map((r) => {
      const rule = this.#named(normalised(r));
      if (ids.has(rule.id)) throw new AmberError('invalid_input', `Refused the tool rules: two rules have the id '${rule.id}'.`);
      ids.add(rule.id);
      return rule;
    });
    this.#settings.set('policy.rules', named);
    return named;
  }

  /**
   * Adds a rule, unless one allowing or denying the same thing in the same place is stored: then that one
   * stays (a command prefix rule keeps the worse class of the two). `changed` is false when nothing moved.
   */
  add(rule: PolicyRule): { rule: StoredPolicyRule; changed: boolean } {
    const rules = this.list();
    const next = normalised(rule);
    const same = rules.findIndex((r) => sameTarget(r, next));
    if (same !== -1) {
      const held = rules[same]!;
      if (held.command === undefined || next.class === undefined || (held.class !== undefined && RANK[held.class] >= RANK[next.class]))
        return { rule: held, changed: false };
      const raised: StoredPolicyRule = { ...held, class: next.class, ...(next.source ? { source: next.source } : {}) };
      this.replace(rules.map((r, i) => (i === same ? raised : r)));
      return { rule: raised, changed: true };
    }
    if (rules.length >= MAX_POLICY_RULES)
      throw new AmberError('invalid_input', `There are already ${MAX_POLICY_RULES} stored rules; remove some in Settings first.`);
    const stored = this.replace([...rules, next]).at(-1)!;
    return { rule: stored, changed: true };
  }

  /** Removes the rule with this id; `not_found` when there is none. */
  remove(id: string): StoredPolicyRule {
    const rules = this.list();
    const gone = rules.find((r) => r.id === id);
    if (!gone) throw new AmberError('not_found', 'That rule is no longer stored (removed in another window?); look at the list again.');
    this.replace(rules.filter((r) => r !== gone));
    return gone;
  }

  #named(rule: PolicyRule): StoredPolicyRule {
    return rule.id !== undefined ? (rule as StoredPolicyRule) : { id: this.#newId(), ...rule };
  }
}

/** Whether a rule holds in a conversation working in `workspaceRoot` (a rule with no workspace holds everywhere). */
export function ruleHoldsIn(rule: PolicyRule, workspaceRoot: string): boolean {
  return rule.workspace === undefined || resolve(rule.workspace) === resolve(workspaceRoot);
}

/**
 * The command prefixes the rules allow for one shell tool in one workspace, each with the worst class
 * approved under it.
 */
export function shellGrants(rules: readonly PolicyRule[], toolName: string, workspaceRoot: string): Map<string, ShellClass> {
  const granted = new Map<string, ShellClass>();
  for (const r of rules) {
    if (r.effect !== 'allow' || r.command === undefined || r.tool !== toolName || !ruleHoldsIn(r, workspaceRoot)) continue;
    const cls = r.class ?? 'write';
    const before = granted.get(r.command);
    if (before === undefined || RANK[cls] > RANK[before]) granted.set(r.command, cls);
  }
  return granted;
}

function normalised(rule: PolicyRule): PolicyRule {
  return {
    ...rule,
    ...(rule.folder !== undefined ? { folder: resolve(rule.folder) } : {}),
    ...(rule.workspace !== undefined ? { workspace: resolve(rule.workspace) } : {}),
  };
}

function sameTarget(a: PolicyRule, b: PolicyRule): boolean {
  return a.effect === b.effect && a.tool === b.tool && a.folder === b.folder && a.command === b.command && a.workspace === b.workspace;
}
