import type { ProviderDeclaration } from '../../../shared/plugins/index.ts';
import type { ModelInfo, StreamFn } from '../../../shared/providers/index.ts';
import { ContributionRegistry } from './contribution-registry.ts';

export interface InstalledProvider {
  id: string;
  flavor: string;
  presets: ProviderDeclaration['presets'];
  models: ModelInfo[];
  /** Never throws: a failure, a dead plugin or an abort ends the stream with one `error` event. */
  stream: StreamFn;
}

export interface ListedProvider extends Omit<InstalledProvider, 'stream'> {
  pluginId: string;
}

/** Providers by id, each usable by the agent loop as a plain StreamFn. */
export class ProviderRegistry extends ContributionRegistry<InstalledProvider> {
  constructor() {
    super('provider');
  }

  list(): ListedProvider[] {
    return this.entries().map(({ pluginId, value: { stream: _stream, ...rest } }) => ({ ...rest, pluginId }));
  }

  /** The provider's StreamFn, or undefined when no plugin offers that provider now. */
  stream(id: string): StreamFn | undefined {
    return this.get(id)?.value.stream;
  }
}
