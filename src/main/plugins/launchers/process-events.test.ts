import { expect, test, vi } from 'vitest';
import { lineFrame } from './plugin-launcher.ts';
import { ProcessEvents } from './process-events.ts';

test('the exit is heard once, by a listener added before it and by one added after', () => {
  const events = new ProcessEvents();
  const heard: string[] = [];
  events.onExit((e) => heard.push(`early ${e.code}`));
  events.exit({ code: 3, signal: null });
  events.exit({ code: 9, signal: null });
  events.onExit((e) => heard.push(`late ${e.code}`));
  expect(heard).toEqual(['early 3', 'late 3']);
});

test('a frame and output reach every listener in order, even past one that throws', () => {
  const events = new ProcessEvents();
  const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
  try {
    const heard: string[] = [];
    events.onMessage(() => {
      throw new Error('broken listener');
    });
    events.onMessage((f) => heard.push(JSON.stringify(f.read())));
    events.onOutput((stream, text) => heard.push(`${stream}: ${text}`));
    events.message(lineFrame('{"ch":"ready"}'));
    events.output('stderr', 'warning');
    expect(heard).toEqual(['{"ch":"ready"}', 'stderr: warning']);
    expect(spy).toHaveBeenCalledTimes(1);
  } finally {
    spy.mockRestore();
  }
});
