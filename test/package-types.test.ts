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
import { CODES, loadCatalog, type CallOptions, type CallResult, type Catalog, type DryRunResult, type CatalogOptions, type Code, type Decoded, type Finding, type OutboundRecord, type SentRequest, type Severity, type Tool, type ToolError, type ToolErrorKind } from 'flowguard';

export async function use(): Promise<number> {
  const options: CatalogOptions = { schemas: 'schemas', env: {} };
  const catalog: Catalog = await loadCatalog(options);
  const result: CallResult = await catalog.call('x', {}, { cache: false });
  const callOptions: CallOptions = { dryRun: Math.random() > 2 };
  const either: CallResult | DryRunResult = await catalog.call('x', {}, callOptions);
  // @ts-expect-error with dryRun known only at run time, the result may be a dry run
  const notEither: CallResult = await catalog.call('x', {}, callOptions);
  const kind: ToolErrorKind | undefined = result.ok ? undefined : (result.error satisfies ToolError).kind;
  // A dry run has a result type of its own: a call's result is never a dry run.
  const dry: DryRunResult = await catalog.call('x', {}, { dryRun: true });
  const sent: SentRequest | undefined = dry.ok ? dry.dryRun : undefined;
  const decoded: Decoded | undefined = result.ok ? result.content : undefined;
  const tools: readonly Tool[] = catalog.tools;
  const requests: OutboundRecord[] | undefined = 'requests' in result ? result.requests : undefined;
  const findings: Finding[] = catalog.findings();
  const severity: Severity | undefined = findings[0]?.severity;
  const code: Code = 'SEC001';
  // @ts-expect-error a finding code is one of the table's, not any string
  const wrong: Code = 'XYZ999';
  // @ts-expect-error the public Catalog has no test hook
  void catalog.runHook;
  // @ts-expect-error nor the runtime's parts, which may change with any release
  void catalog.schemaReports;
  // @ts-expect-error the response cache's Cache-Control values never reach a caller
  void (result.ok ? result.cacheControl : undefined);
  // @ts-expect-error a call's result is never a dry run
  void (result.ok ? result.dryRun : undefined);
  // @ts-expect-error an unknown option is refused
  await loadCatalog({ schema: 'x' });
  void [kind, sent, decoded, severity, wrong, requests, either, notEither];
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
    const where = diagnostic.file
      ? `${relative(dir, diagnostic.file.fileName)}(${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1})`
      : '';
    return `${where}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
  });
}

/** The most declaration files the entry point may reach: more, and internal modules have become API. */
const MAX_PUBLIC_DECLARATIONS = 12;

/** Every declaration file `entry` reaches through its relative imports, itself included, relative to `root`. */
function typeClosure(entry: string, root: string): string[] {
  const reached = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (reached.has(file)) continue;
    reached.add(file);
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (fileName.startsWith('.')) queue.push(resolve(dirname(file), fileName).replace(/\.js$/, '.d.ts'));
    }
  }
  return [...reached].map((file) => relative(root, file)).sort();
}

function declarationFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    return entry.isDirectory() ? declarationFiles(path) : entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

describe('type declarations', () => {
  it('the exports map and `types` point at the declarations of the entry point', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      types: string;
      exports: { '.': { types: string; import: string } };
    };
    expect(pkg.exports['.']).toEqual({ types: './dist/src/index.d.ts', import: './dist/bundle/index.js' });
    expect(resolve(ROOT, pkg.types)).toBe(resolve(ROOT, pkg.exports['.'].types));
    expect(readFileSync(join(ROOT, pkg.types), 'utf8')).toMatch(/export declare function loadCatalog/);
  });

  it('a consumer importing flowguard type-checks against every name the entry point exports', () => {
    expect(typeCheck(CONSUMER)).toEqual([]);
  }, 60_000);

  it('and a consumer that misuses them does not', () => {
    const diagnostics = typeCheck(
      `import { loadCatalog } from 'flowguard';\nexport const n: number = await loadCatalog({ schemas: 'x' });\n`,
    );
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatch(/^consumer\.ts\(2\): Type 'Catalog' is not assignable to type 'number'/);
  }, 60_000);

  it(`the entry point's types reach at most ${MAX_PUBLIC_DECLARATIONS} declaration files: the API is a handful of types, the rest internal`, () => {
    const published = join(ROOT, 'dist', 'src');
    const closure = typeClosure(join(published, 'index.d.ts'), published);
    expect(closure).toContain('index.d.ts');
    expect(closure.length, closure.join('\n')).toBeLessThanOrEqual(MAX_PUBLIC_DECLARATIONS);
  });

  it('the closure follows type-only imports, re-exports and import() types, once each', () => {
    const folder = mkdtempSync(join(tmpdir(), 'flowguard-closure-'));
    try {
      const files: Record<string, string> = {
        'index.d.ts':
          "import type { A } from './a.js';\nexport type { B } from './b.js';\nexport declare const c: import('./c.js').C;\nexport type X = A;\n",
        'a.d.ts': "import type { B } from './b.js';\nexport type A = B;\n",
        'b.d.ts': 'export type B = 1;\n',
        'c.d.ts': "import type { A } from './a.js';\nexport type C = A;\n",
        'unreached.d.ts': 'export type U = 2;\n',
      };
      for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
      expect(typeClosure(join(folder, 'index.d.ts'), folder)).toEqual(['a.d.ts', 'b.d.ts', 'c.d.ts', 'index.d.ts']);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

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
