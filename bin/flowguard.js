#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ and bundled into one module, by `npm install` in a
// checkout (the `prepare` script) or when the package is packed (an installed tarball carries
// dist/); one module loads in about half the time of the hundred and more it is made of.
// On Node 22.1 and later, V8 keeps the compiled code of flowguard and its dependencies between
// runs (as tsc does); a start then skips most of the compiling. Node 20 has no such cache.
import { existsSync } from 'node:fs';
import module from 'node:module';

const cli = new URL('../dist/bundle/cli.js', import.meta.url);
if (!existsSync(cli)) {
  // A checkout installed with --ignore-scripts, or dist/ removed: say what to run, not a stack trace.
  process.stderr.write(
    `flowguard is not built (${cli.pathname} is missing): run npm install, or npm run build, in ${new URL('..', import.meta.url).pathname}\n`,
  );
  process.exit(2);
}
module.enableCompileCache?.();
const { runCli, unexpectedErrorText, UNEXPECTED_EXIT_CODE } = await import(cli.href);
// An error that escapes a command (a timer's, while serving) is a bug: one line, not a stack trace.
for (const event of ['uncaughtException', 'unhandledRejection']) {
  process.on(event, (error) => {
    process.stderr.write(unexpectedErrorText(error, process.env));
    process.exit(UNEXPECTED_EXIT_CODE);
  });
}
// The exit code is set, not forced: a server's last log lines and open handles finish first.
process.exitCode = await runCli(process.argv.slice(2));
