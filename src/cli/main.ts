// The `flowguard` command line. Each command lives in its own file; this one wires them up
// and owns the exit codes: 0 success, 1 findings of severity error, 2 usage error.

import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config/project.js';
import { UpstreamError } from '../http/upstreams.js';
import { flowguardVersion } from '../version.js';
import { registerCall } from './call.js';
import { registerDoctor } from './doctor.js';
import { registerGroup } from './group.js';
import { registerList } from './list.js';
import { registerServe } from './serve.js';
import { registerValidate } from './validate.js';
import { UsageError } from './usage.js';

const program = new Command('flowguard')
  .description('Scan, validate and serve FlowMCP 2.0 API schemas as MCP tools')
  .version(flowguardVersion(), '-V, --version', 'print the version of flowguard')
  .exitOverride()
  .configureOutput({ writeErr: (text) => process.stderr.write(text) });

registerValidate(program);
registerCall(program);
registerList(program);
registerDoctor(program);
registerGroup(program);
registerServe(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else if (error instanceof UsageError || error instanceof ConfigError || error instanceof UpstreamError) {
    process.stderr.write(`flowguard: ${error.message}\n`);
    process.exitCode = 2;
  } else {
    throw error;
  }
}
