// The plugin pipe's wire, free of zod: framing (the line splitter), the call gate, the protocol's constants and
// method names, plain-data checks and the two APIs' types. The plugin process loads only this from
// src/shared/plugins' side of the pipe (the schemas there load zod; main checks what a plugin sends).
export * from './protocol.ts';
export * from './line-splitter.ts';
export * from './plain-data.ts';
export * from './call-gate.ts';
export * from './channel-router.ts';
export * from './plugin-api.ts';
