export { FileSecretStore, type SecretCodec, type SecretStore } from './secret-store.ts';
export { DIALECT_PLUGINS, ProviderAccount, ProviderAccounts, type SaveAccountInput, type SavedAccount } from './provider-accounts.ts';
export { PLUGIN_SECRET_FIELDS, PluginSecrets, type PluginSettingsStore, type SecretFields } from './plugin-secrets.ts';
