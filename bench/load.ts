// Load cost against an older build, both measured in the same run on the same files, cold, each
// sample a fresh process: the time from process start to a callable catalog, the peak resident
// memory of all flowguard processes at that moment, and the time from process start to the
// first `tools/list` answer of `flowguard serve` over stdio (no check cache).
//
// The files: the 2.0.0 corpus files the older build loads (FLOWGUARD_BENCH_CORPUS, default
// ../shared/corpora/flowmcp-v2 next to the project), or a generated catalog when there is none.
// The older build: FLOWGUARD_BASELINE=DIR (a checkout with `dist/` built and `node_modules/`), or
// FLOWGUARD_BASELINE_REF=REF (a git ref, default BASELINE_REF below), exported from git and built
// once into .bench/baseline-<commit>/.

import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateCatalog } from './generate.js';
import { packageEntry } from './package-entry.js';
import { median } from './stats.js';

/** main when issue 29 was taken up: the build its targets are relative to. */
const BASELINE_REF = 'b409bba';
const RUNS = 9;
/** Issue 29: a callable catalog in at most 0.55x the time, the first tools/list in 0.6x, no more memory. */
const TARGETS = { readyMs: 0.55, peakMib: 1.0, firstListMs: 0.6 } as const;

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const probe = join(root, 'dist/bench/load-probe.js');

interface Sample {
  readyMs: number;
  cpuMs: number;
  peakMib: number;
  processes: number;
  tools: number;
  files: string[];
}

interface Files {
  schemas: string;
  lists: string;
  what: string;
  cleanUp(): void;
}

function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}: ${result.stderr || result.stdout}`);
  return result.stdout;
}

/** The older build's folder (`ref`, or the load benchmark's own), built on first use. */
export function baselineBuild(ref?: string): string {
  const given = ref === undefined ? process.env.FLOWGUARD_BASELINE : undefined;
  if (given) return resolve(given);
  const commit = run(
    'git',
    ['rev-parse', '--verify', `${ref ?? process.env.FLOWGUARD_BASELINE_REF ?? BASELINE_REF}^{commit}`],
    root,
  ).trim();
  const dir = join(root, '.bench', `baseline-${commit.slice(0, 12)}`);
  if (existsSync(join(dir, 'package.json')) && existsSync(packageEntry(dir))) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  run('sh', ['-c', `git archive ${commit} | tar -x -C '${dir}'`], root);
  // The same locked dependencies share this checkout's; others are installed from npm's cache
  // (a build from before a dependency was added or removed would not compile against these).
  const sameLock =
    readFileSync(join(dir, 'package-lock.json'), 'utf8') === readFileSync(join(root, 'package-lock.json'), 'utf8');
  if (sameLock) symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  else run('npm', ['ci', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'], dir);
  // Its own build script: tsc, and for builds since the bundle, esbuild.
  run('npm', ['run', '--silent', 'build'], dir);
  return dir;
}

function probeLoad(build: string, files: Files): Sample {
  const project = mkdtempSync(join(tmpdir(), 'flowguard-bench-project-'));
  try {
    const out = run(process.execPath, [probe, build, files.schemas, files.lists, project], root);
    return JSON.parse(out.trim().split('\n').pop() ?? '') as Sample;
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

const toolsFlag = new Map<string, boolean>();

/** Whether a build's `serve` has `--tools` (discovery mode), asked once from its help. */
function knowsToolsFlag(build: string): boolean {
  if (!toolsFlag.has(build))
    toolsFlag.set(
      build,
      run(process.execPath, [join(build, 'bin/flowguard.js'), 'serve', '--help'], root).includes('--tools'),
    );
  return toolsFlag.get(build) as boolean;
}

/** Milliseconds from spawning `flowguard serve` (stdio, no cache) to its answer to `tools/list`. */
function firstToolsList(build: string, files: Files): Promise<number> {
  const project = mkdtempSync(join(tmpdir(), 'flowguard-bench-project-'));
  const started = performance.now();
  const args = [
    join(build, 'bin/flowguard.js'),
    'serve',
    '--no-cache',
    '--schemas',
    files.schemas,
    '--lists',
    files.lists,
    '--project',
    project,
  ];
  // Every tool listed by both builds: a build with discovery mode would start in it above 100 tools.
  if (knowsToolsFlag(build)) args.push('--tools', 'all');
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'] });
  const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
  send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  });
  return new Promise<number>((resolveMs, reject) => {
    let buffered = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
        const message = JSON.parse(buffered.slice(0, end)) as { id?: number };
        buffered = buffered.slice(end + 1);
        if (message.id === 1) {
          send({ jsonrpc: '2.0', method: 'notifications/initialized' });
          send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
        } else if (message.id === 2) {
          resolveMs(performance.now() - started);
          child.kill('SIGKILL');
        }
      }
    });
    child.once('exit', () => {
      clearTimeout(timer);
      rmSync(project, { recursive: true, force: true });
      reject(new Error(`serve (${build}) ended before answering tools/list`));
    });
  });
}

/** The corpus files the older build loads, copied with their lists; else a generated catalog. */
function benchFiles(baseline: string): Files {
  const corpus = resolve(process.env.FLOWGUARD_BENCH_CORPUS ?? join(root, '../shared/corpora/flowmcp-v2'));
  const dir = mkdtempSync(join(tmpdir(), 'flowguard-bench-load-'));
  const cleanUp = () => rmSync(dir, { recursive: true, force: true });
  if (!existsSync(corpus)) {
    cleanUp();
    const generated = generateCatalog({ count: 300, seed: 20261125, handlerShare: 0.4 });
    // No lists, but a folder for them: `serve` refuses a lists folder that is not there.
    mkdirSync(join(generated.dir, 'shared-lists'));
    return {
      schemas: generated.dir,
      lists: join(generated.dir, 'shared-lists'),
      what: '300 generated schema files (no corpus found)',
      cleanUp: () => rmSync(generated.dir, { recursive: true, force: true }),
    };
  }
  const lists = join(corpus, '_lists');
  const loaded = probeLoad(baseline, { schemas: corpus, lists, what: '', cleanUp }).files;
  for (const file of loaded) cpSync(file, join(dir, 'schemas', relative(corpus, file)));
  cpSync(lists, join(dir, 'lists'), { recursive: true });
  return {
    schemas: join(dir, 'schemas'),
    lists: join(dir, 'lists'),
    what: `the ${loaded.length} files of ${corpus} the older build loads`,
    cleanUp,
  };
}

/**
 * The p50 of each build, and the p50 of the ratios of samples taken one after the other: how much
 * this machine lets a process have swings within a run, and a pair shares the moment it was taken.
 */
function ratioLine(
  label: string,
  now: readonly number[],
  before: readonly number[],
  target: number | null,
  unit: string,
): string {
  const ratio = median(now.map((value, index) => value / (before[index] as number)));
  const verdict = target === null ? '' : `; target <= ${target}x: ${ratio <= target ? 'met' : 'MISSED'}`;
  return `  ${label}: ${median(now).toFixed(0)} ${unit} vs ${median(before).toFixed(0)} ${unit}, ${ratio.toFixed(2)}x (p50 of paired ratios${verdict})`;
}

export async function benchLoadAgainstBaseline(): Promise<string[]> {
  const baseline = baselineBuild();
  const files = benchFiles(baseline);
  try {
    const samples = {
      now: [] as Sample[],
      before: [] as Sample[],
      nowList: [] as number[],
      beforeList: [] as number[],
    };
    // Interleaved, so that both builds see the same machine at the same moments.
    for (let i = 0; i < RUNS; i += 1) {
      samples.before.push(probeLoad(baseline, files));
      samples.now.push(probeLoad(root, files));
      samples.beforeList.push(await firstToolsList(baseline, files));
      samples.nowList.push(await firstToolsList(root, files));
    }
    const values = (list: Sample[], key: 'readyMs' | 'cpuMs' | 'peakMib') => list.map((sample) => sample[key]);
    const last = (list: Sample[]) => list[list.length - 1] as Sample;
    return [
      `load against an older build (${relative(root, baseline) || baseline}): ${files.what}, cold, fresh processes, p50 of ${RUNS}`,
      `  tools: ${last(samples.now).tools} now, ${last(samples.before).tools} before; processes at a callable catalog: ${last(samples.now).processes} now, ${last(samples.before).processes} before`,
      ratioLine(
        'time to a callable catalog',
        values(samples.now, 'readyMs'),
        values(samples.before, 'readyMs'),
        TARGETS.readyMs,
        'ms',
      ),
      // No target: beside the time, what this machine's other work changes less.
      ratioLine('  its CPU time', values(samples.now, 'cpuMs'), values(samples.before, 'cpuMs'), null, 'ms'),
      ratioLine(
        'peak memory of all processes',
        values(samples.now, 'peakMib'),
        values(samples.before, 'peakMib'),
        TARGETS.peakMib,
        'MiB',
      ),
      ratioLine('process start to first tools/list', samples.nowList, samples.beforeList, TARGETS.firstListMs, 'ms'),
    ];
  } finally {
    files.cleanUp();
  }
}
