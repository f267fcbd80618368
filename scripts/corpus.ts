// `npm run corpus -- <dir> [--lists DIR] [--project DIR]`: how much of a real catalog flowguard
// serves. For every schema file below <dir> it counts the routes (or tools) its `main` declares,
// loads the folder as `serve` would, and prints the routes found, the tools served, those hidden
// only for want of a key, and those not served, with the reasons grouped by finding code. A
// measuring tool for people, not a test: `npm test` never needs a corpus.

import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Catalog } from '../src/runtime/catalog.js';
import { isWithin, selectSchemaFiles } from '../src/scan/files.js';
import { FindingSink, isError, type Finding } from '../src/report/findings.js';
import { isRecord } from '../src/shared/raw.js';
import { parseModule } from '../src/scan/parse.js';
import { readLiteral } from '../src/scan/literal.js';
import { readSchemaModule } from '../src/schema/module.js';

interface FileCount {
  file: string;
  /** Route (or tool) names its `main` declares; empty when `main` cannot be read. */
  routes: string[];
  legacy: boolean;
}

/** The route names a file declares, read from its syntax tree as `validate` reads `main`. */
function countRoutes(file: string): FileCount {
  const text = readFileSync(file, 'utf8');
  const sink = new FindingSink(file, text);
  const program = parseModule(text, sink);
  if (!program) return { file, routes: [], legacy: false };
  const module = readSchemaModule(program, sink);
  // VAL006 is the finding that names a v1.2.0 file.
  const legacy = sink.findings.some((finding) => finding.code === 'VAL006');
  if (legacy || !module.main) return { file, routes: [], legacy };
  const main = readLiteral(module.main, 'main', sink, 'SEC017')?.value;
  const map = isRecord(main) ? (isRecord(main.tools) ? main.tools : main.routes) : undefined;
  return { file, routes: isRecord(map) ? Object.keys(map) : [], legacy: false };
}

/** The route a finding's path names (`main.routes.x...`, `main.tools.x...`, `handlers.x...`), if any. */
function routeOf(finding: Finding): string | undefined {
  return /^(?:main\.(?:routes|tools)|handlers)\.([A-Za-z_$][\w$]*)/.exec(finding.path ?? '')?.[1];
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { lists: { type: 'string' }, project: { type: 'string' } },
  });
  const dir = positionals[0];
  if (!dir) throw new Error('usage: npm run corpus -- <dir> [--lists DIR] [--project DIR]');
  const lists = resolve(values.lists ?? join(dir, '_lists'));
  const project = values.project ?? '.';
  const files = selectSchemaFiles([dir]).files.filter((file) => !isWithin(resolve(file), lists));
  const counts = files.map(countRoutes);
  const found = counts.reduce((sum, count) => sum + count.routes.length, 0);

  const started = performance.now();
  // Every factory runs now, so one that fails counts as not served (a server would find out on first call).
  const catalog = await Catalog.load({ schemas: dir, lists, project, sandbox: { size: 1 }, handlers: 'at-load' });
  const loadMs = performance.now() - started;
  try {
    const toolsByFile = new Map<string, Set<string>>();
    for (const tool of catalog.tools) {
      const file = resolve(tool.schema.file);
      toolsByFile.set(file, (toolsByFile.get(file) ?? new Set()).add(tool.routeName));
    }
    const reports = new Map(catalog.reports.map((report) => [resolve(report.file), report.findings]));
    const reasons = new Map<string, { routes: number; example: string }>();
    const addReason = (code: string, example: string) => {
      const entry = reasons.get(code) ?? { routes: 0, example };
      entry.routes += 1;
      reasons.set(code, entry);
    };
    for (const count of counts) {
      const served = toolsByFile.get(resolve(count.file)) ?? new Set();
      const errors = (reports.get(resolve(count.file)) ?? []).filter(isError);
      for (const route of count.routes.filter((name) => !served.has(name))) {
        // A finding of this route explains it; otherwise the file's first error does.
        const why =
          errors.find((finding) => routeOf(finding) === route) ??
          errors.find((finding) => routeOf(finding) === undefined) ??
          errors[0];
        addReason(
          why?.code ?? 'none',
          why ? `${relative(dir, count.file)}: ${why.message}` : `${relative(dir, count.file)}: no error reported`,
        );
      }
    }
    const tools = catalog.tools.length;
    const hidden = catalog.tools.filter((tool) => tool.missingKeys.length > 0).length;
    const legacy = counts.filter((count) => count.legacy).length;
    const percent = (n: number) => (found === 0 ? '0.0' : ((100 * n) / found).toFixed(1));
    const lines = [
      `corpus ${dir}: ${files.length} schema files (${legacy} legacy 1.2.0, not counted), lists ${relative('.', lists) || '.'}, loaded in ${Math.round(loadMs)} ms`,
      `routes found     ${found}`,
      `tools            ${tools} (${percent(tools)} %): ${tools - hidden} served, ${hidden} hidden only for keys`,
      `not served       ${found - tools} (${percent(found - tools)} %)`,
      ...[...reasons]
        .sort((a, b) => b[1].routes - a[1].routes)
        .map(
          ([code, { routes, example }]) =>
            `  ${code.padEnd(7)} ${String(routes).padStart(5)}  e.g. ${example.slice(0, 150)}`,
        ),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await catalog.close();
  }
}

await main();
