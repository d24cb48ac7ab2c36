/**
 * Reads a plugin's stdout/stderr at a bounded rate: beyond `bytesPerSecond` (shared by the streams given)
 * reading pauses until the second is over, so a plugin that floods its console blocks itself on a full
 * pipe instead of keeping main busy.
 */
export function throttleOutput(
  streams: readonly (readonly ['stdout' | 'stderr', NodeJS.ReadableStream | null])[],
  bytesPerSecond: number,
  onText: (stream: 'stdout' | 'stderr', text: string) => void,
): void {
  let windowStart = Date.now();
  let windowBytes = 0;
  for (const [name, stream] of streams) {
    if (!stream) continue;
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const now = Date.now();
      if (now - windowStart >= 1000) {
        windowStart = now;
        windowBytes = 0;
      }
      windowBytes += chunk.length;
      onText(name, chunk);
      if (windowBytes > bytesPerSecond) {
        stream.pause();
        setTimeout(() => stream.resume(), 1000 - (now - windowStart)).unref();
      }
    });
  }
}
