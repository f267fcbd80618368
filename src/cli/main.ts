// The entry of the command-line bundle (dist/bundle/cli.js): what bin/flowguard.js loads and runs
// with the process's own streams. The command line itself is runCli (run.ts).

export { runCli, unexpectedErrorText, UNEXPECTED_EXIT_CODE } from './run.js';
