#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ by `npm install` (the `prepare` script).
import '../dist/src/cli/main.js';
