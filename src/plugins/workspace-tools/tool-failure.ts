/** Thrown inside a tool to end it with an error result the model can act on: its message is a plain sentence. */
export class ToolFailure extends Error {}
