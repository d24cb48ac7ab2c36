// The bundled memory plugin: memories across conversations that the user reviews, pins, deletes and exports.
import { createMemoryPlugin } from './memory-plugin.ts';

export default createMemoryPlugin();
