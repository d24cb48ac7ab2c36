export * from './mcp-methods.ts';
export * from './prompt-arguments.ts';
