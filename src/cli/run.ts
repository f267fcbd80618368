// The command line as a function (as ESLint's `cli.execute`): `runCli(argv, io)` runs one command
// with the given streams, environment and working folder and resolves to its exit code; nothing
// in it calls process.exit. bin/flowguard.js runs it with the process's own; tests run it
// in-process (test/kit/cli.ts). Errors become exit codes here, in one place, by their code:
// 0 success, 1 the command's own failure (findings of severity error, a failed call), 2 a usage
// or settings error, 70 an error flowguard did not expect (a bug).

import { isAbsolute, resolve } from 'node:path';
import { CommanderError, type Command } from 'commander';
import { exitCodeOf, FlowguardError, INTERNAL_ERROR } from '../errors/flowguard-error.js';
import { terminalText } from '../report/format.js';
import { CliRun, withRun, type CliIo } from './io.js';
import { createProgram } from './program.js';

/** Runs `flowguard <argv...>` (argv without the node and script paths); what is not given is the process's own. */
export async function runCli(argv: readonly string[], io: Partial<CliIo> = {}): Promise<number> {
  const run = new CliRun({
    stdout: io.stdout ?? process.stdout,
    stderr: io.stderr ?? process.stderr,
    stdin: io.stdin ?? process.stdin,
    env: io.env ?? process.env,
    cwd: resolve(io.cwd ?? process.cwd()),
  });
  return withRun(run, async () => {
    try {
      const program = createProgram();
      // In the process's own folder the paths stay as typed (messages quote them as typed).
      if (run.cwd !== process.cwd()) program.hook('preAction', (_program, command) => resolvePaths(command, run.cwd));
      await program.parseAsync([...argv], { from: 'user' });
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
  // Not flowguard's own: a bug. One line, and the stack only when asked for.
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  run.stderr.write(`flowguard: ${INTERNAL_ERROR} internal error: ${terminalText(message.split('\n')[0] ?? '')}\n`);
  if (run.env.FLOWGUARD_DEBUG === '1') run.stderr.write(`${terminalText(error instanceof Error ? (error.stack ?? '') : '')}\n`);
  else run.stderr.write('flowguard: this is a bug in flowguard; please report it with the command you ran (FLOWGUARD_DEBUG=1 prints the stack)\n');
  return exitCodeOf(INTERNAL_ERROR);
}

/** Options that name a file or folder: relative to the run's folder, not the process's. */
const PATH_OPTIONS = ['project', 'schemas', 'lists', 'out'];
/** Commands whose arguments are files or folders (`import openapi` takes a URL too). */
const PATH_ARGUMENTS = new Set(['validate', 'migrate', 'init', 'openapi']);

function resolvePaths(command: Command, cwd: string): void {
  const at = (path: string) => (isAbsolute(path) || /^[a-z][a-z0-9+.-]*:\/\//i.test(path) ? path : resolve(cwd, path));
  for (const name of PATH_OPTIONS) {
    const value: unknown = command.getOptionValue(name);
    if (typeof value === 'string') command.setOptionValue(name, at(value));
  }
  if (!PATH_ARGUMENTS.has(command.name())) return;
  // Commander hands processedArgs to the action after the preAction hooks: resolved in place.
  const args = command.processedArgs as unknown[];
  args.forEach((value, index) => {
    if (typeof value === 'string') args[index] = at(value);
    else if (Array.isArray(value)) args[index] = value.map((item) => (typeof item === 'string' ? at(item) : item));
  });
}
