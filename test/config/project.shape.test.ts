// The config's shape (src/config/config-shape.ts) words what Ajv's pattern text would not say:
// which key of security.keys is no environment variable name, and that it is one.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { loadProjectConfig } from '../../src/config/project.js';

const root = mkdtempSync(join(tmpdir(), 'flowguard-config-shape-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function problemOf(name: string, config: unknown): string {
  const dir = join(root, name);
  mkdirSync(join(dir, '.flowmcp'), { recursive: true });
  writeFileSync(join(dir, '.flowmcp', 'config.json'), JSON.stringify(config));
  try {
    loadProjectConfig(dir);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the config was accepted');
}

it('names a key of security.keys that is no environment variable name, as such (not as a package name)', () => {
  const bound = problemOf('bound', { security: { keys: { 'BAD-NAME': ['x'] } } });
  expect(bound).toContain(
    'security.keys["BAD-NAME"]: key \'BAD-NAME\' is not an environment variable name or a * glob of one',
  );
  const listed = problemOf('listed', { security: { keys: ['BAD-NAME'] } });
  expect(listed).toContain('security.keys[0]: is not an environment variable name or a * glob of one');
  expect(`${bound} ${listed}`).not.toContain('package name');
});

it('still says a library that is no string must be a string', () => {
  expect(problemOf('library', { security: { allowedLibraries: [7] } })).toContain(
    'security.allowedLibraries[0]: must be string',
  );
});

// An operator's `allowedLibrary` is three edits from `allowedLibraries`, too far for a did-you-mean:
// the finding once ended at "unknown key" with no way on; its hint now names the keys of that level.
it('names the keys of the level an unknown key sits at when none is close enough to suggest', () => {
  const far = problemOf('far', { security: { allowedLibrary: ['dayjs'] } });
  expect(far).toContain("security.allowedLibrary: unknown key 'allowedLibrary'");
  expect(far).toMatch(/\n {4}hint: the keys here: [a-zA-Z, ]*\ballowedLibraries\b/);
  const near = problemOf('near', { security: { allowedLibrarie: ['dayjs'] } });
  expect(near).toContain("hint: did you mean 'allowedLibraries'?");
  expect(near).not.toContain('the keys here');
});
