// The checks CI runs on a clean clone (.ci/run): lint and typecheck beside the tests, and the
// lint configuration catches real findings in flowguard's own code.

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

it('.ci/run installs, then runs npm run lint, npm run typecheck and npm test, stopping at the first that fails', () => {
  const script = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
  expect(script).toContain('set -euo pipefail');
  const steps = script.split('\n').filter((line) => /^npm (install|run lint|run typecheck|test)\b/.test(line));
  expect(steps.map((line) => line.split(' ').slice(0, 3).join(' '))).toEqual([
    'npm install --no-audit',
    'npm run lint',
    'npm run typecheck',
    'npm test',
  ]);
  const { scripts, devDependencies } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  expect(scripts.lint).toBe('eslint . && npm run --silent format:check');
  expect(Object.keys(devDependencies)).toEqual(
    expect.arrayContaining(['eslint', '@eslint/js', 'typescript-eslint', 'prettier']),
  );
});

it('lints src/ with the recommended rules: an unused binding and an explicit any are findings', () => {
  const source = 'export function f(value: any): number {\n  const unused = 1;\n  return value;\n}\n';
  const result = spawnSync(
    join(ROOT, 'node_modules', '.bin', 'eslint'),
    ['--stdin', '--stdin-filename', 'src/shared/lint-probe.ts', '-f', 'json'],
    { cwd: ROOT, input: source, encoding: 'utf8', timeout: 60_000 },
  );
  expect(result.status, result.stderr).toBe(1);
  const rules = (JSON.parse(result.stdout) as Array<{ messages: Array<{ ruleId: string }> }>)[0]?.messages.map(
    (message) => message.ruleId,
  );
  expect(rules).toEqual(
    expect.arrayContaining(['@typescript-eslint/no-unused-vars', '@typescript-eslint/no-explicit-any']),
  );
}, 60_000);
