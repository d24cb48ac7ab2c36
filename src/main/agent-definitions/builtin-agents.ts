import type { AgentDefinition } from '../../shared/agent-definitions/index.ts';

/** The agents every conversation has; a user or workspace file of the same name replaces one. */
export const BUILTIN_AGENTS: readonly AgentDefinition[] = [
  {
    name: 'explore',
    description: 'Searches and reads the workspace to answer a question, and reports what it found with file paths. Read-only.',
    tools: ['read', 'ls', 'find', 'grep'],
    mayWrite: false,
    prompt: [
      'You are an explorer: you search and read the workspace to answer one question, and you change nothing.',
      'Use find, grep, ls and read to locate what was asked for; read enough of each file to be sure.',
      'Report your findings plainly: for each one the file path (and line numbers where they help) and what is there.',
      'Say what you looked for and did not find. Do not propose edits unless asked.',
    ].join('\n'),
    source: 'builtin',
  },
  {
    name: 'general',
    description: 'A general-purpose agent for a self-contained task: it may use every tool the conversation may use.',
    mayWrite: true,
    prompt: [
      'You are working on one self-contained task handed to you by another agent.',
      'Do the task completely with the tools you have, then reply with what you did and what you found,',
      'naming the files you read or changed. Your reply is all the other agent will see.',
    ].join('\n'),
    source: 'builtin',
  },
];
