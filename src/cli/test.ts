// `flowguard test [targets...]`: every selected route's `tests` run as calls through the pipeline
// `serve` uses (src/authoring/route-tests-run.ts), against the live API or `--upstream`
// overrides, each answer checked against the route's output. The report goes to stdout
// (`--json`: one document), progress to stderr. `--capture` keeps the answers, `--update-output`
// rewrites the tested routes' `output.schema` from them after showing the diff.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import type { Catalog } from '../runtime/catalog.js';
import type { Tool } from '../catalog/tools.js';
import type { OutputUpdatePlan } from '../authoring/output-update.js';
import type { RouteTestResult } from '../authoring/route-tests-run.js';
import { ProjectChecker } from '../project/checker.js';
import { formatFinding, terminalJson, terminalText } from '../report/format.js';
import { plural } from '../shared/plural.js';
import { fileVerdict } from '../report/scope.js';
import { isWithin } from '../scan/files.js';
import { catalogOptions, displayPath, exists, openCatalog, table, type CatalogFlags } from './shared.js';
import { UsageError } from '../errors/flowguard-error.js';
import { cli } from './io.js';

interface TestFlags extends CatalogFlags {
  capture?: string;
  updateOutput?: boolean;
  yes?: boolean;
  progress?: boolean;
  concurrency: string;
  json?: boolean;
}

/** A route that could not be tested because its file, or the route itself, did not load. */
interface NotLoaded {
  file: string;
  route?: string;
  finding: string;
}

const MAX_CONCURRENCY = 64;

export function registerTest(program: Command): void {
  catalogOptions(
    program
      .command('test')
      .description(
        "run the routes' tests as calls against the API and check each answer against the route's output; exit 1 if any fails",
      )
      .argument(
        '[targets...]',
        'tools (MCP name or namespace/file.mjs::route), or schema files or folders; default every route',
      )
      .option('--capture <dir>', 'store each answer as JSON: <dir>/<namespace>/<route>.<index>.json')
      .option(
        '--update-output',
        "write each tested route's output.schema from this run's answers (shows the diff first)",
      )
      .option('--yes', 'with --update-output: write without asking')
      .option('--progress', 'a line per finished test on stderr (default: only on a terminal)')
      .option('--concurrency <n>', 'tests running at once', '4')
      .option('--json', 'print one JSON document'),
    { upstream: true },
  ).action((targets: string[], flags: TestFlags, command: Command) => runTest(targets, flags, command));
}

async function runTest(targets: string[], flags: TestFlags, command: Command): Promise<void> {
  const concurrency = Number(flags.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY)
    throw new UsageError(
      `--concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}, not '${flags.concurrency}'`,
    );
  if (flags.yes && !flags.updateOutput) throw new UsageError('--yes only goes with --update-output');
  // `flowguard test some/file.mjs` with no --schemas: that file (or folder) is the catalog.
  const [only] = targets;
  if (
    command.getOptionValueSource('schemas') === 'default' &&
    targets.length === 1 &&
    only !== undefined &&
    exists(only)
  )
    flags.schemas = only;
  // Loaded when the command runs (program.ts).
  const [{ planOutputUpdates }, { runRouteTests }] = await Promise.all([
    import('../authoring/output-update.js'),
    import('../authoring/route-tests-run.js'),
  ]);
  const catalog = await openCatalog(flags);
  const controller = new AbortController();
  const abort = () => controller.abort();
  process.once('SIGINT', abort);
  try {
    const { tools, paths } = selectTools(catalog, targets, flags.schemas);
    const notLoaded = notLoadedUnder(catalog, paths);
    const progress = flags.progress || cli().stderr.isTTY ? progressLine : undefined;
    const results = await runRouteTests(
      catalog,
      tools.filter((tool) => tool.route.tests.length > 0),
      { concurrency, signal: controller.signal, onResult: progress },
    );
    if (flags.capture !== undefined) {
      try {
        capture(flags.capture, results);
      } catch (error) {
        // The folder or the disk refused the path the command was given: a usage error, as `import --out`'s.
        throw new UsageError(`--capture ${flags.capture}: ${(error as Error).message}`);
      }
    }
    const withoutTests = tools.filter((tool) => tool.route.tests.length === 0).map((tool) => tool.reference);
    const plan = flags.updateOutput
      ? await planOutputUpdates(results, ProjectChecker.open({ project: flags.project, lists: flags.lists }))
      : undefined;
    const report = { results, withoutTests, notLoaded, plan };
    // Answers and schema files are untrusted text: what is printed escapes what would act on a terminal.
    cli().stdout.write(
      flags.json ? `${terminalJson(JSON.stringify(jsonReport(report), null, 2))}\n` : terminalText(textReport(report)),
    );
    const written = plan ? await writeUpdates(plan, flags) : true;
    const failed =
      results.some((result) => !result.ok) || notLoaded.length > 0 || (plan !== undefined && plan.refused.length > 0);
    cli().exitCode = failed || !written ? 1 : 0;
  } finally {
    process.off('SIGINT', abort);
    await catalog.close();
  }
}

/**
 * The tools the targets name: a tool's name or reference, or a file or folder whose tools are
 * all taken. No targets: every tool. `paths` are the files and folders named (undefined: all).
 */
function selectTools(
  catalog: Catalog,
  targets: readonly string[],
  schemas: string,
): { tools: Tool[]; paths: string[] | undefined } {
  if (targets.length === 0) return { tools: catalog.tools, paths: undefined };
  const selected = new Set<Tool>();
  const paths: string[] = [];
  for (const target of targets) {
    const tool = catalog.tool(target);
    if (tool) {
      selected.add(tool);
      continue;
    }
    if (!exists(target))
      throw new UsageError(`'${target}' is neither a tool nor a file or folder; \`flowguard list\` names the tools`);
    // A path outside the catalog would select nothing, silently.
    if (!catalog.schemaReports.some((report) => isUnder(report.file, target)))
      throw new UsageError(
        `${target} holds no schema file of the catalog loaded from ${schemas}; name the folder with --schemas`,
      );
    paths.push(target);
    for (const candidate of catalog.tools) if (isUnder(candidate.schema.file, target)) selected.add(candidate);
  }
  // In catalog order, whatever order the targets came in.
  return { tools: catalog.tools.filter((tool) => selected.has(tool)), paths };
}

function isUnder(file: string, path: string): boolean {
  return resolve(file) === resolve(path) || isWithin(file, path);
}

/** Files (under the paths named, or all) that were not loaded, and routes dropped from the others: nothing of them could be tested. */
function notLoadedUnder(catalog: Catalog, paths: readonly string[] | undefined): NotLoaded[] {
  const rows: NotLoaded[] = [];
  for (const report of catalog.schemaReports) {
    if (paths && !paths.some((path) => isUnder(report.file, path))) continue;
    const verdict = fileVerdict(report);
    if (verdict.status === 'rejected') rows.push({ file: report.file, finding: formatFinding(verdict.error) });
    if (verdict.status === 'loads')
      for (const { route, error } of verdict.dropped)
        rows.push({ file: report.file, route, finding: formatFinding(error) });
  }
  return rows;
}

function testName(result: RouteTestResult): string {
  return `${result.tool.name} tests[${result.index}]`;
}

function progressLine(result: RouteTestResult, done: number, total: number): void {
  cli().stderr.write(
    terminalText(`[${done}/${total}] ${result.ok ? 'pass' : 'FAIL'} ${testName(result)} (${result.ms} ms)\n`),
  );
}

/** Each answer as `<dir>/<namespace>/<route>.<index>.json`; routes sharing a namespace and name use their tool name instead. */
function capture(dir: string, results: readonly RouteTestResult[]): void {
  const stems = new Map<string, Set<Tool>>();
  for (const { tool } of results) {
    const stem = `${tool.namespace}/${tool.routeName}`;
    stems.set(stem, (stems.get(stem) ?? new Set()).add(tool));
  }
  for (const result of results) {
    const { tool } = result;
    const unique = (stems.get(`${tool.namespace}/${tool.routeName}`)?.size ?? 0) === 1;
    const folder = join(dir, safeName(tool.namespace));
    mkdirSync(folder, { recursive: true });
    const answer =
      result.result.ok && 'content' in result.result
        ? { status: result.result.status, content: result.result.content }
        : { status: result.status ?? null, error: result.error };
    const record = {
      tool: tool.name,
      reference: tool.reference,
      index: result.index,
      description: result.description,
      arguments: result.arguments,
      ok: result.ok,
      ...answer,
    };
    writeFileSync(
      join(folder, `${safeName(unique ? tool.routeName : tool.name)}.${result.index}.json`),
      `${JSON.stringify(record, null, 2)}\n`,
    );
  }
}

/** A name as one file name: characters outside letters, digits, `_`, `-` and `.` become `_`, and it never starts with a dot. */
function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^\./, '_');
}

interface Report {
  results: readonly RouteTestResult[];
  withoutTests: readonly string[];
  notLoaded: readonly NotLoaded[];
  plan: OutputUpdatePlan | undefined;
}

function textReport({ results, withoutTests, notLoaded, plan }: Report): string {
  const lines: string[] = [];
  const rows = results.map((result) => [
    result.ok ? 'pass' : 'FAIL',
    testName(result),
    result.status === undefined ? '-' : String(result.status),
    `${result.ms} ms`,
    result.description,
  ]);
  table(rows).forEach((row, index) => {
    lines.push(row);
    const result = results[index] as RouteTestResult;
    for (const problem of [...(result.error ? [result.error] : []), ...result.mismatches]) lines.push(`    ${problem}`);
  });
  for (const reference of withoutTests) lines.push(`no tests  ${reference}`);
  for (const row of notLoaded)
    lines.push(`not loaded  ${displayPath(row.file)}${row.route ? ` route ${row.route}` : ''}: ${row.finding}`);
  const failed = results.filter((result) => !result.ok).length;
  const summary = [`${plural(results.length, 'test')}: ${results.length - failed} passed, ${failed} failed`];
  if (withoutTests.length > 0) summary.push(`${plural(withoutTests.length, 'route')} without tests`);
  if (notLoaded.length > 0) summary.push(`${notLoaded.length} not loaded`);
  lines.push(summary.join('; '));
  if (plan) lines.push(...planLines(plan));
  return `${lines.join('\n')}\n`;
}

function planLines(plan: OutputUpdatePlan): string[] {
  const lines: string[] = [];
  for (const update of plan.updates) lines.push('', update.diff.trimEnd());
  for (const note of plan.notes) lines.push(`note: ${note}`);
  for (const { file, problem } of plan.refused) lines.push(`output not updated in ${displayPath(file)}: ${problem}`);
  for (const reference of plan.unanswered) lines.push(`output not updated for ${reference}: no test got a JSON answer`);
  if (plan.updates.length === 0 && plan.refused.length === 0)
    lines.push('every tested output already matches its answers');
  return lines;
}

function jsonReport({ results, withoutTests, notLoaded, plan }: Report) {
  const failed = results.filter((result) => !result.ok).length;
  return {
    summary: {
      tests: results.length,
      passed: results.length - failed,
      failed,
      withoutTests: withoutTests.length,
      notLoaded: notLoaded.length,
    },
    tests: results.map((result) => ({
      ref: result.tool.reference,
      tool: result.tool.name,
      index: result.index,
      description: result.description,
      ok: result.ok,
      status: result.status ?? null,
      ms: result.ms,
      error: result.error ?? null,
      mismatches: result.mismatches,
    })),
    withoutTests,
    notLoaded,
    ...(plan
      ? {
          output: {
            updates: plan.updates.map(({ file, changed, diff }) => ({ file, changed, diff })),
            refused: plan.refused,
            unchanged: plan.unchanged,
            unanswered: plan.unanswered,
            notes: plan.notes,
          },
        }
      : {}),
  };
}

/** Writes the planned updates if the author agrees (`--yes`, or asked on a terminal); false when some were left unwritten. */
async function writeUpdates(plan: OutputUpdatePlan, flags: TestFlags): Promise<boolean> {
  if (plan.updates.length === 0) return true;
  const { writeOutputUpdate } = await import('../authoring/output-update.js');
  const files = plural(plan.updates.length, 'file');
  if (!flags.yes) {
    const stdin = cli().io.stdin ?? process.stdin;
    if (!stdin.isTTY || !cli().stderr.isTTY) {
      cli().stderr.write(
        `flowguard: ${files} not written: no terminal to ask on; run again with --yes to write the diff shown\n`,
      );
      return false;
    }
    const prompt = createInterface({ input: stdin, output: cli().stderr as NodeJS.WritableStream });
    const answer = await prompt.question(`write the output schemas into ${files}? [y/N] `);
    prompt.close();
    if (!/^y(es)?$/i.test(answer.trim())) {
      cli().stderr.write('flowguard: nothing written\n');
      return false;
    }
  }
  let written = true;
  for (const update of plan.updates) {
    if (writeOutputUpdate(update)) {
      cli().stderr.write(`flowguard: wrote ${displayPath(update.file)} (${update.changed.join(', ')})\n`);
    } else {
      cli().stderr.write(
        `flowguard: ${displayPath(update.file)} changed while the tests ran; not written, run again\n`,
      );
      written = false;
    }
  }
  return written;
}
