// The package's type declarations as a TypeScript user sees them: a consumer in a folder of its
// own imports 'flowguard' through node_modules, so the `types` condition of the exports map and
// the emitted .d.ts files under dist/src/ (built by `pretest`) are what is checked.

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Uses every name index.ts exports, and fails to compile where a type were `any` or missing. */
const CONSUMER = `
import { CODES, Catalog, loadCatalog, type CallOptions, type CallResult, type CatalogOptions, type Code, type Decoded, type Finding, type SentRequest, type Severity, type Tool, type ToolError, type ToolErrorKind } from 'flowguard';

export async function use(): Promise<number> {
  const options: CatalogOptions = { schemas: 'schemas', env: {} };
  const catalog: Catalog = await loadCatalog(options);
  const callOptions: CallOptions = { dryRun: true };
  const result: CallResult = await catalog.call('x', {}, callOptions);
  const kind: ToolErrorKind | undefined = result.ok ? undefined : (result.error satisfies ToolError).kind;
  const sent: SentRequest | undefined = result.ok && 'dryRun' in result ? result.dryRun : undefined;
  const decoded: Decoded | undefined = result.ok && 'content' in result ? result.content : undefined;
  const tools: Tool[] = catalog.tools;
  const findings: Finding[] = catalog.findings();
  const severity: Severity | undefined = findings[0]?.severity;
  const code: Code = 'SEC001';
  // @ts-expect-error a finding code is one of the table's, not any string
  const wrong: Code = 'XYZ999';
  // @ts-expect-error the public Catalog has no test hook
  void catalog.runHook;
  // @ts-expect-error an unknown option is refused
  await loadCatalog({ schema: 'x' });
  void [kind, sent, decoded, severity, wrong, Catalog];
  return tools.length + Object.keys(CODES).length + code.length;
}
`;

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'flowguard-consumer-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'flowguard'), 'dir');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', type: 'module' }));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The diagnostics of compiling `text` as the consumer's one module, as `file(line): message` lines. */
function typeCheck(text: string): string[] {
  const file = join(dir, 'consumer.ts');
  writeFileSync(file, text);
  const program = ts.createProgram([file], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
    typeRoots: [join(ROOT, 'node_modules', '@types')],
  });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const where = diagnostic.file ? `${relative(dir, diagnostic.file.fileName)}(${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1})` : '';
    return `${where}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
  });
}

function declarationFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    return entry.isDirectory() ? declarationFiles(path) : entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

describe('type declarations', () => {
  it('the exports map and `types` point at the declarations of the entry point', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { types: string; exports: { '.': { types: string; import: string } } };
    expect(pkg.exports['.']).toEqual({ types: './dist/src/index.d.ts', import: './dist/bundle/index.js' });
    expect(resolve(ROOT, pkg.types)).toBe(resolve(ROOT, pkg.exports['.'].types));
    expect(readFileSync(join(ROOT, pkg.types), 'utf8')).toMatch(/export declare function loadCatalog/);
  });

  it('a consumer importing flowguard type-checks against every name the entry point exports', () => {
    expect(typeCheck(CONSUMER)).toEqual([]);
  }, 60_000);

  it('and a consumer that misuses them does not', () => {
    const diagnostics = typeCheck(`import { loadCatalog } from 'flowguard';\nexport const n: number = await loadCatalog({ schemas: 'x' });\n`);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatch(/^consumer\.ts\(2\): Type 'Catalog' is not assignable to type 'number'/);
  }, 60_000);

  it('every declaration the entry point reaches is inside the published dist/src/', () => {
    const published = join(ROOT, 'dist', 'src');
    const outside = declarationFiles(published).flatMap((file) =>
      ts
        .preProcessFile(readFileSync(file, 'utf8'), true, true)
        .importedFiles.map((imported) => imported.fileName)
        .filter((name) => name.startsWith('.'))
        .map((name) => resolve(dirname(file), name))
        .filter((target) => relative(published, target).startsWith('..'))
        .map((target) => `${relative(ROOT, file)} -> ${relative(ROOT, target)}`),
    );
    expect(outside).toEqual([]);
  });
});
