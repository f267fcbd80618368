// The one error model: every error flowguard throws on purpose is a FlowguardError with a stable
// code of the one code table (src/report/codes.ts, CODES), so that the command line maps it to
// an exit code in one place (cli/run.ts) and the docs list it with the findings. Anything else that
// escapes is a bug, reported as ERR099 (exit 70).

import { CODES, type Code } from '../report/codes.js';

export class FlowguardError extends Error {
  readonly code: Code;

  /** `message` names the problem and where it is (the flag, file or key), and what to do where that is not plain. */
  constructor(code: Code, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }

  /** The exit code of a command this error stops: its code's row says, else 1. */
  get exitCode(): number {
    return exitCodeOf(this.code);
  }
}

export function exitCodeOf(code: Code): number {
  const entry = CODES[code];
  return 'exit' in entry ? entry.exit : 1;
}

/** A mistake in how a command was called (ERR001, exit code 2), as opposed to a finding in a schema. */
export class UsageError extends FlowguardError {
  constructor(message: string) {
    super('ERR001', message);
  }
}

/**
 * A file of `.flowmcp/` a command writes (the key lock, groups.json) that the folder or the disk
 * refused, or that would pass its size bound (ERR013, exit code 1): the operator's environment, not
 * a bug. `cause` is the file system's error, or the words that say which bound.
 */
export class UnwritableFileError extends FlowguardError {
  constructor(file: string, cause: unknown) {
    super('ERR013', `cannot write ${file}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** An error that is not flowguard's own (a bug, or a library's failure nobody put into words). */
export const INTERNAL_ERROR: Code = 'ERR099';
