export { FileSecretStore, type SecretCodec, type SecretStore } from './secret-store.ts';
export {
  BALANCE_PRESETS,
  DIALECT_PLUGINS,
  ProviderAccount,
  ProviderAccounts,
  type SaveAccountInput,
  type SavedAccount,
  WALLET_PLUGIN,
} from './provider-accounts.ts';
export { PLUGIN_SECRET_BINDINGS, PLUGIN_SECRET_FIELDS, PluginSecrets, type SecretBindings, type SecretFields } from './plugin-secrets.ts';
export { type CatalogModel, ModelCatalog } from './model-catalog.ts';
export { FREE_PRESETS, modelMetadata } from './model-metadata.ts';
