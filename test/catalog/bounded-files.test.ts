// Schema and list files are bounded before they are read (decision R13), and a catalog reads only
// the list files its schemas reach. The 48 MB list of issue 13 runs in child processes with a
// small heap, so that a regression fails the test instead of taking vitest down with it.

import { spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/runtime/catalog.js';
import { listFile, type ListSpec } from '../lists/helpers.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'flowguard.js');
/** A heap the catalog needs a few tens of MiB of; parsing the 48 MB list needs far more. */
const CHILD_HEAP_MB = 256;
const CHILD_TIMEOUT_MS = 60_000;

const COUNTRIES: ListSpec = { name: 'countries', version: '2.0.0', entries: [{ code: 'de' }, { code: 'at' }] };
const STATES: ListSpec = { name: 'states', dependsOn: [{ ref: 'countries', version: '2.0.0' }] };
const COLORS: ListSpec = { name: 'colors' };

/** A valid schema whose one route takes a value of `ref`'s `code` field (lists from listFile have entry code 'a'). */
function schemaText(namespace: string, ref: string, description = 'A thing by its code.'): string {
  const main = {
    namespace,
    name: 'ExampleApi',
    description,
    version: '2.0.0',
    root: 'https://api.example.com',
    sharedLists: [{ ref, version: ref === 'countries' ? '2.0.0' : '1.0.0' }],
    routes: {
      getThing: {
        method: 'GET',
        path: '/thing',
        description: 'One thing.',
        parameters: [
          {
            position: { key: 'code', value: '{{USER_PARAM}}', location: 'query' },
            z: { primitive: `enum({{${ref}:code}})`, options: [] },
          },
        ],
        output: { mimeType: 'application/json', schema: { type: 'object' } },
        tests: [{ _description: 'the first code', code: ref === 'countries' ? 'de' : 'a' }],
      },
    },
  };
  return `export const main = ${JSON.stringify(main, null, 2)};\n`;
}

interface Project {
  dir: string;
  schemas: string;
  lists: string;
}

function project(config?: unknown): Project {
  const dir = mkdtempSync(join(tmpdir(), 'flowguard-bounded-'));
  const made = { dir, schemas: join(dir, 'schemas'), lists: join(dir, 'lists') };
  mkdirSync(made.schemas);
  mkdirSync(made.lists);
  if (config !== undefined) {
    mkdirSync(join(dir, '.flowmcp'));
    writeFileSync(join(dir, '.flowmcp', 'config.json'), JSON.stringify(config));
  }
  return made;
}

function writeList(at: Project, spec: ListSpec): string {
  const { file, text } = listFile(spec);
  writeFileSync(join(at.lists, file), text);
  return join(at.lists, file);
}

function writeSchema(at: Project, name: string, text: string): string {
  writeFileSync(join(at.schemas, name), text);
  return join(at.schemas, name);
}

async function load(at: Project, cache = false) {
  const catalog = await Catalog.load({ schemas: at.schemas, lists: at.lists, project: at.dir, env: {}, cache });
  await catalog.close();
  const codes = (file: string) => catalog.reports.find((report) => report.file === file)?.findings.map((f) => f.code);
  const listFiles = catalog.reports.filter((report) => report.file.startsWith(at.lists)).map((report) => report.file);
  return { catalog, codes, listFiles };
}

const made: Project[] = [];
afterAll(() => {
  for (const { dir } of made) rmSync(dir, { recursive: true, force: true });
});
function tracked(config?: unknown): Project {
  const at = project(config);
  made.push(at);
  return at;
}

describe('a catalog', () => {
  it('reads only the list files its schemas reach, parents included', async () => {
    const at = tracked();
    const countries = writeList(at, COUNTRIES);
    const states = writeList(at, STATES);
    writeList(at, COLORS);
    writeFileSync(join(at.lists, 'broken.mjs'), 'export const list = {');
    const schema = writeSchema(at, 'things.mjs', schemaText('things', 'states'));
    const { catalog, codes, listFiles } = await load(at);
    expect(codes(schema)?.filter((code) => !code.startsWith('TST'))).toEqual([]);
    expect(catalog.tools.map((tool) => tool.name)).toEqual(['things_getThing']);
    expect(listFiles).toEqual([countries, states]);
    expect(catalog.findings().filter((f) => f.file.startsWith(at.lists))).toEqual([]);
  });

  it('rejects a schema file past limits.maxFileBytes (SEC020) and still loads the others', async () => {
    const at = tracked({ limits: { maxFileBytes: 2048 } });
    writeList(at, COLORS);
    const big = writeSchema(at, 'big.mjs', schemaText('big', 'colors', 'x'.repeat(2048)));
    const small = writeSchema(at, 'small.mjs', schemaText('small', 'colors'));
    const { catalog, codes } = await load(at);
    expect(codes(big)).toEqual(['SEC020']);
    const [finding] = catalog.reports.find((report) => report.file === big)?.findings ?? [];
    expect(finding?.message).toBe(
      `the file is ${statSync(big).size} bytes (${(statSync(big).size / 1024).toFixed(1)} KiB); the limit (limits.maxFileBytes) is 2048 bytes (2 KiB), so the file was not parsed`,
    );
    expect(finding?.hint).toContain('.flowmcp/config.json');
    expect(codes(small)).not.toContain('SEC020');
    expect(catalog.tools.map((tool) => tool.name)).toEqual(['small_getThing']);
  });

  it('rejects a referenced list file past the limit (SEC207), and the schema that needs it (VAL072)', async () => {
    const at = tracked({ limits: { maxFileBytes: 1024 } });
    const big = writeList(at, {
      ...COLORS,
      entries: Array.from({ length: 80 }, (_, i) => ({ code: i === 0 ? 'a' : `c${i}` })),
    });
    const schema = writeSchema(at, 'things.mjs', schemaText('things', 'colors'));
    const { catalog, codes } = await load(at);
    expect(codes(big)).toEqual(['SEC207']);
    expect(codes(schema)).toContain('VAL072');
    expect(catalog.tools).toEqual([]);
  });

  it('checks again what a cached check depended on when a list file changes', async () => {
    const at = tracked();
    const colors = writeList(at, COLORS);
    const schema = writeSchema(at, 'things.mjs', schemaText('things', 'colors'));
    expect((await load(at, true)).codes(schema)).not.toContain('VAL073');
    writeFileSync(colors, listFile({ ...COLORS, version: '1.0.1' }).text);
    expect((await load(at, true)).codes(schema)).toContain('VAL073');
  });
});

describe('flowguard validate', () => {
  // In a child with a short deadline: reading /dev/zero whole, as a plain readFileSync does, never ends.
  it.skipIf(!existsSync('/dev/zero'))('never reads a device named on the command line (/dev/zero)', () => {
    const result = child(['validate', '--json', '/dev/zero'], { timeoutMs: 15_000 });
    expect(result.status, result.stderr.slice(0, 2000)).toBe(1);
    const report = JSON.parse(result.stdout) as { files: Array<{ findings: Array<{ code: string }> }> };
    expect(report.files[0]?.findings).toMatchObject([{ code: 'VAL009' }]);
  });

  // A regular file whose size says 0 and that holds more (the kernel's /proc files do): read up to the limit only.
  it.skipIf(!existsSync('/proc/cpuinfo'))(
    'reads no further than the limit from a file whose size says less than it holds',
    () => {
      const at = tracked({ limits: { maxFileBytes: 1024 } });
      const result = spawnSync(process.execPath, [BIN, 'validate', '--json', '--project', at.dir, '/proc/cpuinfo'], {
        cwd: at.dir,
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(result.status, result.stderr.slice(0, 2000)).toBe(1);
      const report = JSON.parse(result.stdout) as {
        files: Array<{ findings: Array<{ code: string; message: string }> }>;
      };
      expect(report.files[0]?.findings).toMatchObject([
        {
          code: 'SEC020',
          message:
            'reading the file went past the limit (it grew while it was read, or is no regular file); the limit (limits.maxFileBytes) is 1024 bytes (1 KiB), so the file was not parsed',
        },
      ]);
    },
    25_000,
  );

  it('honours limits.maxFileBytes for schema and list files, used or not', () => {
    const at = tracked({ limits: { maxFileBytes: 1024 } });
    const unused = writeList(at, {
      name: 'unused',
      entries: Array.from({ length: 80 }, (_, i) => ({ code: `c${i}` })),
    });
    writeList(at, COLORS);
    const big = writeSchema(at, 'big.mjs', schemaText('big', 'colors', 'x'.repeat(1024)));
    const result = spawnSync(
      process.execPath,
      [BIN, 'validate', '--json', '--project', at.dir, '--lists', at.lists, at.schemas],
      { cwd: at.dir, encoding: 'utf8', timeout: 30_000 },
    );
    expect(result.status, result.stderr).toBe(1);
    const report = JSON.parse(result.stdout) as {
      files: Array<{ file: string; findings: Array<{ code: string; message: string }> }>;
    };
    const codes = (file: string) =>
      report.files
        .find((entry) => join(at.dir, entry.file) === file || entry.file === file)
        ?.findings.map((f) => f.code);
    expect(codes(big)).toEqual(['SEC020']);
    expect(codes(unused)).toEqual(['SEC207']);
  });
});

/** `entries` entries of about 83 bytes each, written in slices so the test never holds the file. */
function writeHugeList(file: string, entries: number): void {
  const fd = openSync(file, 'w');
  try {
    const fields = [
      { key: 'code', type: 'string', description: 'A code.' },
      { key: 'label', type: 'string', description: 'A label.' },
      { key: 'rank', type: 'number', description: 'A rank.' },
    ];
    writeSync(
      fd,
      `export const list = {\n  meta: ${JSON.stringify({ name: 'hugeList', version: '1.0.0', description: 'Very many entries.', fields })},\n  entries: [\n`,
    );
    const slice: string[] = [];
    for (let i = 0; i < entries; i++) {
      slice.push(
        `    { code: 'C${String(i).padStart(7, '0')}', label: 'entry ${i} of a very huge list', rank: ${i} },\n`,
      );
      if (slice.length === 10_000 || i === entries - 1) writeSync(fd, slice.splice(0).join(''));
    }
    writeSync(fd, '  ]\n};\n');
  } finally {
    closeSync(fd);
  }
}

/** Runs `flowguard <args>`, or a catalog load through dist/ (`args` then are schemas, lists and project), in a child with a small heap. */
function child(args: string[], { catalog = false, timeoutMs = CHILD_TIMEOUT_MS } = {}) {
  const script = `
    const { Catalog } = await import(${JSON.stringify(join(ROOT, 'dist', 'src', 'runtime', 'catalog.js'))});
    const [schemas, lists, project] = process.argv.slice(1);
    const catalog = await Catalog.load({ schemas, lists, project, env: {} });
    await catalog.close();
    process.stdout.write(JSON.stringify({ tools: catalog.tools.map((tool) => tool.name), reports: catalog.reports.map((report) => ({ file: report.file, codes: report.findings.map((f) => f.code) })) }));`;
  const command = catalog ? ['--input-type=module', '-e', script, ...args] : [BIN, ...args];
  return spawnSync(process.execPath, [`--max-old-space-size=${CHILD_HEAP_MB}`, ...command], {
    encoding: 'utf8',
    timeout: timeoutMs,
    killSignal: 'SIGKILL',
  });
}

describe('a 48 MB list file (600,000 entries), in a child process with a small heap', () => {
  let at: Project;
  let huge: string;
  beforeAll(() => {
    at = tracked();
    huge = join(at.lists, 'huge-list.mjs');
    writeHugeList(huge, 600_000);
    expect(statSync(huge).size).toBeGreaterThan(48_000_000);
    writeList(at, COLORS);
    writeSchema(at, 'things.mjs', schemaText('things', 'colors'));
  });

  it(
    'costs a catalog nothing while no schema refers to it: it is not even opened',
    () => {
      const result = child([at.schemas, at.lists, at.dir], { catalog: true });
      expect(result.status, result.stderr.slice(0, 2000)).toBe(0);
      const loaded = JSON.parse(result.stdout) as {
        tools: string[];
        reports: Array<{ file: string; codes: string[] }>;
      };
      expect(loaded.tools).toEqual(['things_getThing']);
      expect(loaded.reports.filter((report) => report.file.startsWith(at.lists))).toEqual([
        { file: join(at.lists, 'colors.mjs'), codes: [] },
      ]);
    },
    CHILD_TIMEOUT_MS + 10_000,
  );

  it(
    'is SEC207 under the default limit when a schema refers to it, and that schema VAL072',
    () => {
      const schemas = join(at.dir, 'schemas-huge');
      mkdirSync(schemas, { recursive: true });
      writeFileSync(join(schemas, 'huge.mjs'), schemaText('huge', 'hugeList'));
      writeFileSync(join(schemas, 'things.mjs'), schemaText('things', 'colors'));
      const result = child([schemas, at.lists, at.dir], { catalog: true });
      expect(result.status, result.stderr.slice(0, 2000)).toBe(0);
      const loaded = JSON.parse(result.stdout) as {
        tools: string[];
        reports: Array<{ file: string; codes: string[] }>;
      };
      expect(loaded.tools).toEqual(['things_getThing']);
      expect(loaded.reports.find((report) => report.file === huge)?.codes).toEqual(['SEC207']);
      expect(loaded.reports.find((report) => report.file === join(schemas, 'huge.mjs'))?.codes).toContain('VAL072');
    },
    CHILD_TIMEOUT_MS + 10_000,
  );

  it(
    'is SEC207 in flowguard validate, which checks every list file',
    () => {
      const result = child(['validate', '--json', '--project', at.dir, '--lists', at.lists, at.schemas]);
      expect(result.status, result.stderr.slice(0, 2000)).toBe(1);
      const report = JSON.parse(result.stdout) as {
        files: Array<{ file: string; findings: Array<{ code: string; message: string }> }>;
      };
      const entry = report.files.find((file) => file.file.endsWith('huge-list.mjs'));
      expect(entry?.findings.map((f) => f.code)).toEqual(['SEC207']);
      expect(entry?.findings[0]?.message).toContain('the limit (limits.maxFileBytes) is 2097152 bytes (2 MiB)');
    },
    CHILD_TIMEOUT_MS + 10_000,
  );
});
