import type { ModelAccount } from '../../shared/api/index.ts';

/** `account/model`: how a form's model field names a choice (and how main takes it). */
const modelValue = (m: { provider: string; modelId: string }) => `${m.provider}/${m.modelId}`;

/** A model `<select>`'s choices: one group per account, under its name, each model by its name and id. */
export function ModelOptions({ accounts }: { accounts: readonly ModelAccount[] }) {
  return accounts.map((account) => (
    <optgroup key={account.id} label={account.name}>
      {account.models.map((m) => (
        <option key={modelValue(m)} value={modelValue(m)}>
          {m.name === m.modelId ? m.modelId : `${m.name} (${m.modelId})`}
        </option>
      ))}
    </optgroup>
  ));
}
