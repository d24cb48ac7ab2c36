import { type Disposable, toDisposable } from '../../../shared/disposable.ts';
import { Emitter, type Event } from '../../../shared/emitter.ts';
import { isCoreEventTopic } from '../../../shared/plugins/index.ts';
import { AmberError } from '../../errors.ts';

export type EventListener = (payload: unknown, from: string | null) => void;

/**
 * Topics main and plugins share. Main listens with `on`; a plugin subscribes through HostApi and gets
 * `$event` calls (the runtime records the subscription in the ledger). `from` is the emitting plugin's id,
 * or null for main; an emitter never hears its own event. Core topics (`agent.event`, `plugin.stateChanged`…)
 * are main's alone: a plugin may listen to them, but its emit on one throws and reaches no listener.
 */
export class PluginEventBus {
  readonly #listeners = new Map<string, Set<{ owner: string | null; listener: EventListener }>>();
  // A listener's failure is its own; the refusal stands.
  readonly #refusals = new Emitter<{ topic: string; from: string; message: string }>();
  /** Hears every emit refused to a plugin (the runtime writes it to that plugin's log). */
  readonly onDidRefuse: Event<{ topic: string; from: string; message: string }> = this.#refusals.event;

  on(topic: string, listener: EventListener, owner: string | null = null): Disposable {
    const entry = { owner, listener };
    let set = this.#listeners.get(topic);
    if (!set) {
      set = new Set();
      this.#listeners.set(topic, set);
    }
    set.add(entry);
    return toDisposable(() => {
      const s = this.#listeners.get(topic);
      s?.delete(entry);
      if (s?.size === 0) this.#listeners.delete(topic);
    });
  }

  /** Throws (before any listener hears it) when a plugin emits on a core topic. */
  emit(topic: string, payload: unknown, from: string | null = null): void {
    if (from !== null && isCoreEventTopic(topic)) {
      const message = `The plugin '${from}' cannot emit on '${topic}': only Amber emits on its own topics (agent.*, plugin.*); emit under your plugin's id instead, like '${from}.${topic.split('.').pop() ?? 'event'}'.`;
      this.#refusals.fire({ topic, from, message });
      throw new AmberError('denied', message);
    }
    for (const { owner, listener } of Array.from(this.#listeners.get(topic) ?? [])) {
      if (from !== null && owner === from) continue;
      try {
        listener(payload, from);
      } catch {
        // One listener's failure must not keep the event from the others.
      }
    }
  }

  listenerCount(topic: string): number {
    return this.#listeners.get(topic)?.size ?? 0;
  }
}
