import type { ApiInput, ApiOutput, Channel, EventName, EventPayload } from './api-contract.ts';
import type { ApiResult } from './api-result.ts';

type DomainOf<C extends string> = C extends `${infer D}.${string}` ? D : never;
type VerbOf<C extends string, D extends string> = C extends `${D}.${infer V}` ? V : never;

/**
 * What the preload exposes as `window.amber`: one function per channel of the contract, grouped by
 * domain (`amber.sessions.list(input)`), and one subscribe function per event (`amber.on['session.created']`).
 * Nothing generic: a channel that is not in the contract has no function.
 */
export type AmberBridge = {
  [D in DomainOf<Channel>]: {
    [V in VerbOf<Channel, D>]: `${D}.${V}` extends infer C extends Channel ? (input: ApiInput<C>) => Promise<ApiResult<ApiOutput<C>>> : never;
  };
} & {
  on: { [E in EventName]: (listener: (payload: EventPayload<E>) => void) => () => void };
};
