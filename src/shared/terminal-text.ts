// Text for a terminal or a log line: what an upstream, a document, a schema file or a client
// wrote cannot act on the terminal that shows it (escaped), nor start a forged log line. One
// table for every printer: the commands (report/format.ts re-exports these), the servers' logs.

/**
 * Characters that act on a terminal or reorder what it shows: C0 controls but tab and newline,
 * DEL, C1 controls, the bidi marks, embeddings, overrides and isolates, and the line and
 * paragraph separators. An upstream's answer or a document puts them in what a command prints
 * (ESC[2J clears the screen, U+202E shows text backwards); printed, they are escaped.
 */
const ACTS_ON_TERMINAL =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** Whether one character acts on a terminal (generated source text escapes these too). */
export function actsOnTerminal(char: string): boolean {
  ACTS_ON_TERMINAL.lastIndex = 0;
  return ACTS_ON_TERMINAL.test(char);
}

/** Text for a terminal: each such character as an escape, `\x1b` or `\u202e`; tabs and line breaks stay. */
export function terminalText(text: string): string {
  return text.replace(ACTS_ON_TERMINAL, (char) => {
    const code = char.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : unicodeEscape(code);
  });
}

/**
 * One log line of text that may quote a client (an SDK error names what it could not read): as
 * terminalText, and a line break in it written as `\n`, so that it starts no forged line.
 */
export function logLine(text: string): string {
  return terminalText(text).replaceAll('\n', '\\n');
}

/** JSON text for a terminal: each such character as JSON's `\u` escape, so it parses to exactly the same data. */
export function terminalJson(json: string): string {
  return json.replace(ACTS_ON_TERMINAL, (char) => unicodeEscape(char.charCodeAt(0)));
}

function unicodeEscape(code: number): string {
  return `\\u${code.toString(16).padStart(4, '0')}`;
}
