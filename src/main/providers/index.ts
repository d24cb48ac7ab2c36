export { FileSecretStore, type SecretCodec, type SecretStore } from './secret-store.ts';
export { DIALECT_PLUGINS, ProviderAccount, ProviderAccounts, type SaveAccountInput } from './provider-accounts.ts';
export { type CatalogModel, ModelCatalog } from './model-catalog.ts';
export { FREE_PRESETS, modelMetadata } from './model-metadata.ts';
