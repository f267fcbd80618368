// The command line run in-process (src/cli/run.ts), its output captured: what a test of a
// command's output and exit code needs, in milliseconds instead of a process start per run.
// Tests of what only a real process shows (signals, the stdio transport, the launcher) spawn
// bin/flowguard.js instead.

import { runCli } from '../../src/cli/run.js';
import type { CliOutput } from '../../src/cli/io.js';

export interface CliOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** The folder relative paths are taken from; default the test process's. */
  cwd?: string;
  /** The whole environment the command sees; default none (as a spawned test with only PATH). */
  env?: Record<string, string>;
}

/** A stream stand-in that keeps what is written, and takes it at once as a stream would. */
export class CapturedOutput implements CliOutput {
  private readonly chunks: string[] = [];

  write(text: string, done?: (error?: Error | null) => void): boolean {
    this.chunks.push(text);
    done?.();
    return true;
  }

  get text(): string {
    return this.chunks.join('');
  }
}

/** Runs `flowguard <args...>` in this process; resolves once the command has finished. */
export async function runFlowguard(args: readonly string[], options: CliOptions = {}): Promise<CliOutcome> {
  const stdout = new CapturedOutput();
  const stderr = new CapturedOutput();
  const code = await runCli(args, { stdout, stderr, env: options.env ?? {}, cwd: options.cwd });
  return { code, stdout: stdout.text, stderr: stderr.text };
}
