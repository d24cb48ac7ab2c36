import { Emitter } from '../../../shared/emitter.ts';
import type { PipeFrame, PluginExit, PluginProcess } from './plugin-launcher.ts';

const listenerFailed = (e: unknown): void => console.error('A plugin process listener failed', e);

/**
 * A plugin process's event sources, as a launcher fires them: each frame on its pipe, its output, and its
 * one exit, heard by a listener added after it too. A listener that throws does not keep the others (or
 * the pipe) from going on.
 */
export class ProcessEvents implements Pick<PluginProcess, 'onMessage' | 'onOutput' | 'onExit'> {
  readonly #messages = new Emitter<PipeFrame>(listenerFailed);
  readonly #output = new Emitter<{ stream: 'stdout' | 'stderr'; text: string }>(listenerFailed);
  readonly #exited = new Emitter<PluginExit>(listenerFailed);
  #exit: PluginExit | null = null;

  readonly onMessage = (listener: (frame: PipeFrame) => void): void => void this.#messages.event(listener);
  readonly onOutput = (listener: (stream: 'stdout' | 'stderr', text: string) => void): void =>
    void this.#output.event(({ stream, text }) => listener(stream, text));
  readonly onExit = (listener: (exit: PluginExit) => void): void => {
    if (this.#exit) listener(this.#exit);
    else this.#exited.event(listener);
  };

  message(frame: PipeFrame): void {
    this.#messages.fire(frame);
  }

  output(stream: 'stdout' | 'stderr', text: string): void {
    this.#output.fire({ stream, text });
  }

  /** Fires once: the first exit is the process's; its listeners are let go after. */
  exit(exit: PluginExit): void {
    if (this.#exit) return;
    this.#exit = exit;
    this.#exited.fire(exit);
    this.#exited.dispose();
  }
}
