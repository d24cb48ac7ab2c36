import { describe, expect, it } from 'vitest';
import { Emitter } from './emitter.ts';

describe('Emitter', () => {
  it('delivers each fire to every listener until its disposable is disposed', () => {
    const emitter = new Emitter<number>();
    const a: number[] = [];
    const b: number[] = [];
    const subA = emitter.event((v) => a.push(v));
    emitter.event((v) => b.push(v));
    emitter.fire(1);
    subA.dispose();
    emitter.fire(2);
    expect(a).toEqual([1]);
    expect(b).toEqual([1, 2]);
    expect(emitter.listenerCount).toBe(1);
  });

  it('a listener added while firing hears the next fire, not the current one', () => {
    const emitter = new Emitter<string>();
    const heard: string[] = [];
    emitter.event(() => void emitter.event((v) => heard.push(v)));
    emitter.fire('first');
    expect(heard).toEqual([]);
    emitter.fire('second');
    expect(heard).toEqual(['second']);
  });

  it('a listener that throws neither stops the others nor reaches the firer', () => {
    const errors: unknown[] = [];
    const emitter = new Emitter<number>((e) => errors.push(e));
    const heard: number[] = [];
    emitter.event(() => {
      throw new Error('boom');
    });
    emitter.event((v) => heard.push(v));
    expect(() => emitter.fire(7)).not.toThrow();
    expect(heard).toEqual([7]);
    expect(errors).toHaveLength(1);
  });

  it('after dispose nothing is delivered and new listeners are not kept', () => {
    const emitter = new Emitter<number>();
    const heard: number[] = [];
    emitter.event((v) => heard.push(v));
    emitter.dispose();
    emitter.event((v) => heard.push(v));
    emitter.fire(1);
    expect(heard).toEqual([]);
    expect(emitter.listenerCount).toBe(0);
  });
});
