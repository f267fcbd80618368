// The `flowguard` command line: runs the command tree and owns the exit codes: 0 success,
// 1 the command's own failure (findings of severity error, a failed call), 2 usage error.

import { CommanderError } from 'commander';
import { ConfigError } from '../config/project.js';
import { UpstreamError } from '../http/upstreams.js';
import { terminalText } from '../report/format.js';
import { createProgram } from './program.js';
import { UsageError } from './usage.js';

try {
  await createProgram().parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else if (error instanceof UsageError || error instanceof ConfigError || error instanceof UpstreamError) {
    // Messages quote what the user named and what files say (a document's parse error shows its text).
    process.stderr.write(`flowguard: ${terminalText(error.message)}\n`);
    process.exitCode = 2;
  } else {
    throw error;
  }
}
