export * from './mcp-server-config.ts';
export * from './mcp-server-views.ts';
export * from './mcp-methods.ts';
export * from './prompt-arguments.ts';
