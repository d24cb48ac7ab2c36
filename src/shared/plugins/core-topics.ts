// Event topics main emits on the plugin event bus. Plugins may subscribe to them (budget and metrics read
// the agent's events) but never emit on them: what arrives on these topics is Amber's word, not a plugin's.

/** The agent's events (turns, messages, tool calls, usage), except streaming deltas. */
export const AGENT_EVENT_TOPIC = 'agent.event';
/** The agent's streaming deltas, on their own topic so a plugin that wants none is never flooded. */
export const AGENT_DELTA_TOPIC = 'agent.delta';
/** A plugin's state changed: `{ id, state, reason, enabled }`. */
export const PLUGIN_STATE_CHANGED_TOPIC = 'plugin.stateChanged';

/** Memories a compaction's extraction found: `{ sessionId, entryId, memories }` (MemoriesExtracted in src/shared/context), for the memory plugin to take. */
export const MEMORY_EXTRACTED_TOPIC = 'memory.extracted';

/** Every topic main emits. */
export const CORE_EVENT_TOPICS: readonly string[] = [AGENT_EVENT_TOPIC, AGENT_DELTA_TOPIC, PLUGIN_STATE_CHANGED_TOPIC, MEMORY_EXTRACTED_TOPIC];

/** Namespaces main keeps for topics it may add later; a plugin emits under its own id instead (`example.greeted`). */
export const CORE_TOPIC_PREFIXES: readonly string[] = ['agent.', 'plugin.'];

/** True for a topic only main may emit on. */
export function isCoreEventTopic(topic: string): boolean {
  return CORE_EVENT_TOPICS.includes(topic) || CORE_TOPIC_PREFIXES.some((prefix) => topic.startsWith(prefix));
}
