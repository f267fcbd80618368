// The `flowguard` command tree: each command lives in its own file and registers itself here.
// A command's own machinery (import's OpenAPI reader, migrate, test's runner, audit's reader)
// loads when the command runs, so `serve`, which a client starts and waits for, never loads it.

import { Command } from 'commander';
import { flowguardVersion, installedFile } from '../shared/version.js';
import { registerAudit } from './audit.js';
import { registerCall } from './call.js';
import { registerDoctor } from './doctor.js';
import { registerExplain } from './explain.js';
import { registerGroup } from './group.js';
import { registerImport } from './import.js';
import { registerInit } from './init.js';
import { registerKeys } from './keys.js';
import { registerList } from './list.js';
import { registerListRefs } from './list-refs.js';
import { registerMigrate } from './migrate.js';
import { registerDescribe } from './describe.js';
import { registerSearch } from './search.js';
import { registerServe } from './serve.js';
import { registerTest } from './test.js';
import { registerValidate } from './validate.js';
import { cli } from './io.js';

export function createProgram(): Command {
  const program = new Command('flowguard')
    .description('Scan, validate and serve FlowMCP 2.x, 3.x and 4.x API schemas as MCP tools')
    .version(flowguardVersion(), '-V, --version', 'print the version of flowguard')
    .exitOverride()
    // Help and commander's own errors go to the run's streams (run.ts), not the process's.
    .configureOutput({
      writeOut: (text) => void cli().stdout.write(text),
      writeErr: (text) => void cli().stderr.write(text),
    });
  // Where a newcomer reads on: the guides ship in the package, so this path opens in any install.
  program.addHelpText(
    'after',
    () =>
      `\nDocumentation: ${installedFile('docs', 'README.md')}\nA finding's code explained: flowguard explain CODE\n`,
  );
  for (const register of [
    registerInit,
    registerValidate,
    registerExplain,
    registerCall,
    registerTest,
    registerList,
    registerListRefs,
    registerDoctor,
    registerGroup,
    registerKeys,
    registerServe,
    registerSearch,
    registerDescribe,
    registerAudit,
    registerMigrate,
    registerImport,
  ])
    register(program);
  return program;
}
