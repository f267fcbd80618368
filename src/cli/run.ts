// The command line as a function (as ESLint's `cli.execute`): `runCli(argv, io)` runs one command
// with the given streams, environment and working folder and resolves to its exit code; nothing
// in it calls process.exit. bin/flowguard.js runs it with the process's own; tests run it
// in-process (test/kit/cli.ts). Errors become exit codes here, in one place, by their code:
// 0 success, 1 the command's own failure (findings of severity error, a failed call), 2 a usage
// or settings error, 70 an error flowguard did not expect (a bug).

import { resolve } from 'node:path';
import { CommanderError } from 'commander';
import { exitCodeOf, FlowguardError, INTERNAL_ERROR } from '../errors/flowguard-error.js';
import { terminalText } from '../report/format.js';
import { CliRun, withRun, type CliIo } from './io.js';
import { createProgram } from './program.js';

/** Runs `flowguard <argv...>` (argv without the node and script paths); what is not given is the process's own. */
export async function runCli(argv: readonly string[], io: Partial<CliIo> = {}): Promise<number> {
  const run = new CliRun({
    stdout: io.stdout ?? process.stdout,
    stderr: io.stderr ?? process.stderr,
    // The process's stdin is only touched by a command that asks (test --update-output).
    stdin: io.stdin,
    env: io.env ?? process.env,
    cwd: resolve(io.cwd ?? process.cwd()),
  });
  return withRun(run, async () => {
    try {
      await inFolder(run.cwd, () => createProgram().parseAsync([...argv], { from: 'user' }));
      return run.exitCode;
    } catch (error) {
      return reportError(error, run);
    }
  });
}

/** One line on stderr for an error that stopped the command, and the exit code its code has. */
function reportError(error: unknown, run: CliRun): number {
  // Commander has printed its own message (program.ts); --help and --version end with 0.
  if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
  if (error instanceof FlowguardError) {
    // Messages quote what the user named and what files say (a document's parse error shows its text).
    run.stderr.write(`flowguard: ${error.code} ${terminalText(error.message)}\n`);
    if (run.env.FLOWGUARD_DEBUG === '1') run.stderr.write(`${terminalText(error.stack ?? '')}\n`);
    return error.exitCode;
  }
  run.stderr.write(unexpectedErrorText(error, run.env));
  return UNEXPECTED_EXIT_CODE;
}

/**
 * What an error that is not flowguard's own (a bug) prints: one line that says so, and the stack
 * only when FLOWGUARD_DEBUG=1. Also what the launcher prints for one that escapes a command (a
 * timer's, while serving) before it ends the process with ERR099's exit code.
 */
export function unexpectedErrorText(error: unknown, env: NodeJS.ProcessEnv): string {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const debug = env.FLOWGUARD_DEBUG === '1';
  const line = `flowguard: ${INTERNAL_ERROR} internal error: ${terminalText(message.split('\n')[0] ?? '')} (a bug in flowguard: please report it with the command you ran${debug ? '' : '; FLOWGUARD_DEBUG=1 prints the stack'})\n`;
  return debug ? `${line}${terminalText(error instanceof Error ? (error.stack ?? '') : '')}\n` : line;
}

/** The exit code of an error that is not flowguard's own. */
export const UNEXPECTED_EXIT_CODE = exitCodeOf(INTERNAL_ERROR);

/** Runs given another folder than the process's, one after the other (the folder is the process's). */
let folderQueue: Promise<unknown> = Promise.resolve();

/**
 * Runs `body` with `cwd` as the process's folder, so that the command reads and prints its paths
 * exactly as a process started there would (relative paths are opened and quoted as typed). The
 * folder is the whole process's: such runs wait for each other, and a worker thread (which cannot
 * change it) must run in the process's folder.
 */
async function inFolder<T>(cwd: string, body: () => Promise<T>): Promise<T> {
  if (cwd === process.cwd()) return body();
  const turn = folderQueue.then(async () => {
    const previous = process.cwd();
    process.chdir(cwd);
    try {
      return await body();
    } finally {
      process.chdir(previous);
    }
  });
  folderQueue = turn.catch(() => undefined);
  return turn;
}
