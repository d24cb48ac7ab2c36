// The bundled metrics plugin: listens to agent events and shows tokens, turn time and tool calls.
import { createMetricsPlugin } from './metrics-plugin.ts';

export default createMetricsPlugin();
