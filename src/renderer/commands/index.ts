export { CommandsProvider, useCommands, type CommandsApi, type StatusMessage } from './commands-context.tsx';
export { useSlashCompletion, type SlashCompletion } from './use-slash-completion.ts';
export { CommandCompletions } from './CommandCompletions.tsx';
export { CommandPalette } from './CommandPalette.tsx';
