import { Transform, type Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/**
 * The characters a terminal may act on: C0 controls but tab and line feed (ESC starts CSI and
 * OSC sequences: erase a line, write the clipboard; CR rewrites the line), DEL, the C1
 * controls (U+0080–U+009F: 8-bit CSI and OSC), and the bidirectional controls (U+061C, U+200E,
 * U+200F, U+202A–U+202E, U+2066–U+2069), which reorder what is shown: U+202E prints the rest of
 * a line right to left, so `exe.txt` can read as `txt.exe` (issue 54).
 */
const CONTROL =
  // eslint-disable-next-line no-control-regex -- control characters are what it finds
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text from the server made inert for a terminal: each control character shown as a `\uXXXX`
 * escape, the rest as it is (issue 44). Inside a JSON string the escape means the same character.
 */
export function terminalSafe(text: string): string {
  return text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** CSV's CRLF line ends shown as line feeds, then every other control escaped. */
const terminalLines = (text: string): string => terminalSafe(text.replace(/\r\n/g, '\n'));

/** Whether a standard output is a terminal (where its text must be made inert). */
export const isTerminal = (stream: Writable & { isTTY?: boolean }): boolean =>
  stream.isTTY === true;

/** What goes to a standard output: made inert when it is a terminal, byte for byte otherwise. */
export function forOutput(stream: Writable & { isTTY?: boolean }, text: string): string {
  return isTerminal(stream) ? terminalLines(text) : text;
}

/**
 * A stream's text made inert on its way to a terminal (the report's CSV): decoded across chunk
 * boundaries, a CR at the end of a chunk held until the next tells whether it ends a CSV line.
 */
export function terminalStream(): Transform {
  const decoder = new StringDecoder('utf8');
  let held = '';
  const take = (text: string, last: boolean): string => {
    const all = held + text;
    held = !last && all.endsWith('\r') ? '\r' : '';
    return terminalLines(held ? all.slice(0, -1) : all);
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      done(null, take(decoder.write(chunk), false));
    },
    flush(done) {
      done(null, take(decoder.end(), true));
    },
  });
}
