// Where a command writes and what it reads from its surroundings: the streams, environment and
// working folder of one run of the command line (run.ts). The commands ask `cli()` instead of
// `process`, so that a program (or a test) runs the CLI in-process with streams of its own; an
// AsyncLocalStorage keeps two runs at once in one process apart.

import { AsyncLocalStorage } from 'node:async_hooks';

/** What a command writes to: a stream, or anything with `write` that calls `done` once it took the text, as a stream does (a test's buffer). */
export interface CliOutput {
  write(text: string, done?: (error?: Error | null) => void): unknown;
  /** A terminal: progress lines and questions only go there. */
  isTTY?: boolean;
}

export interface CliIo {
  stdout: CliOutput;
  stderr: CliOutput;
  /** Where `test --update-output` asks before writing; the process's own when not given. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  /** The folder relative paths of flags and arguments are taken from. */
  cwd: string;
}

/** One run of the command line: its surroundings and the exit code its command sets. */
export class CliRun {
  exitCode = 0;

  constructor(readonly io: CliIo) {}

  get stdout(): CliOutput {
    return this.io.stdout;
  }

  get stderr(): CliOutput {
    return this.io.stderr;
  }

  get env(): NodeJS.ProcessEnv {
    return this.io.env;
  }

  get cwd(): string {
    return this.io.cwd;
  }
}

const running = new AsyncLocalStorage<CliRun>();

/** The run in progress; outside one (a test building the command tree alone), the process's own surroundings. */
export function cli(): CliRun {
  return (
    running.getStore() ??
    new CliRun({ stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() })
  );
}

/** Runs `body` as `run`: every `cli()` below it, across awaits, answers `run`. */
export function withRun<T>(run: CliRun, body: () => Promise<T>): Promise<T> {
  return running.run(run, body);
}
