import type { z } from 'zod';

// A plugin's typed seam for main: each method's arguments and answer are zod schemas in one table that
// both sides import. Main parses the arguments before it sends them and the answer when it arrives; the
// plugin parses the arguments again on arrival (main is trusted, the pipe between them is not a type).

export interface PluginMethodSpec<A extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  args: A;
  result: R;
}

export type PluginMethodTable = Record<string, PluginMethodSpec>;

/** What a caller passes to the method `M` of `T`. */
export type MethodArgs<T extends PluginMethodTable, M extends keyof T> = z.input<T[M]['args']>;
/** What the method `M` of `T` answers, once parsed. */
export type MethodResult<T extends PluginMethodTable, M extends keyof T> = z.output<T[M]['result']>;
