import type { DestinationStream } from 'pino';

/**
 * The log of every app a spec file starts, kept in memory (jest gives each spec file its own
 * modules, so this is one spec file's log): test-app.ts hands `logCapture` to createApp, and
 * spawned services add their output. no-secrets-in-logs.ts scans it after the spec file.
 */
const lines: string[] = [];
const outputs: Array<() => string> = [];

export const logCapture: DestinationStream = {
  write: (line: string) => {
    lines.push(line);
  },
};

/** A destination that writes to `stream` and into the capture. */
export function alsoCapture(stream: DestinationStream): DestinationStream {
  return {
    write: (line: string) => {
      stream.write(line);
      logCapture.write(line);
    },
  };
}

/** Adds the output of a process the spec started (read when the log is scanned). */
export function captureOutputOf(output: () => string): void {
  outputs.push(output);
}

/** Every line captured so far. */
export function capturedLogLines(): string[] {
  return [...lines, ...outputs.flatMap((output) => output().split('\n'))];
}
