// Generated code is checked in (scripts/generate.ts says why); this keeps every generated file in
// step with its source, and every generated file under src/ known to the generator.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GENERATED, generatedSource } from '../../scripts/generate.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

function generatedFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return generatedFiles(path);
    return entry.name.endsWith('.generated.ts') ? [relative(root, path).split(sep).join('/')] : [];
  });
}

describe('generated code', () => {
  it.each(GENERATED.map((module) => [module.file, module] as const))(
    '%s is generated from the current shapes (after a change: npm run generate)',
    (file, module) => {
      expect(readFileSync(join(root, file), 'utf8')).toBe(generatedSource(module));
    },
  );

  it('knows every generated file under src/', () => {
    expect(generatedFiles(join(root, 'src')).sort()).toEqual(GENERATED.map((module) => module.file).sort());
  });
});
