// The plugin host's end of its one pipe to main. The same code runs in an Electron utility process
// (`process.parentPort`) and in a forked Node child (`process.send`); which one is decided at runtime.

export interface ParentPipe {
  readonly kind: 'utility' | 'fork';
  send(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
  /** Called once when main goes away; the host then exits. */
  onClose(listener: () => void): void;
}

interface ElectronParentPort {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
}

export function connectToParent(proc: NodeJS.Process = process): ParentPipe | null {
  // Electron's types declare parentPort as always present; under Node it is undefined.
  const port = (proc as NodeJS.Process & { parentPort?: ElectronParentPort }).parentPort;
  if (port && typeof port.postMessage === 'function') {
    return {
      kind: 'utility',
      send: (m) => port.postMessage(m),
      onMessage: (l) => port.on('message', (e) => l(e.data)),
      // A utility process is ended by Electron with its parent.
      onClose: () => {},
    };
  }
  if (typeof proc.send === 'function' && proc.connected) {
    return {
      kind: 'fork',
      send: (m) => {
        if (proc.connected) proc.send!(m);
      },
      onMessage: (l) => proc.on('message', l),
      onClose: (l) => proc.once('disconnect', l),
    };
  }
  return null;
}
