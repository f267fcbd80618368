// The module a package user of a flowguard build imports: its package.json's entry point
// (dist/bundle/index.js now, dist/src/index.js in builds before the bundle).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export function packageEntry(build: string): string {
  const pkg = JSON.parse(readFileSync(join(build, 'package.json'), 'utf8')) as {
    main?: string;
    exports?: { '.'?: { import?: string } };
  };
  return join(build, pkg.exports?.['.']?.import ?? pkg.main ?? 'dist/src/index.js');
}
