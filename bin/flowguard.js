#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ and bundled into one module by `npm install` (the
// `prepare` script); one module loads in about half the time of the hundred and more it is made of.
// On Node 22.1 and later, V8 keeps the compiled code of flowguard and its dependencies between
// runs (as tsc does); a start then skips most of the compiling. Node 20 has no such cache.
import module from 'node:module';

module.enableCompileCache?.();
await import('../dist/bundle/cli.js');
