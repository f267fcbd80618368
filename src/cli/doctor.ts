// `flowguard doctor`: what an operator needs to see before serving, in one page. Node, the
// project folder, the effective configuration and where each part of it comes from, which
// declared keys have a value (never the value), the libraries the handlers need, the terms of
// service and data licences the schemas state, the groups file, every finding of every file,
// and a verdict. Exit 0 when every file loads with all its routes, 1 otherwise.

import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { checkGroups, groupsFindings } from '../groups/verify.js';
import { groupsFilePath, readGroupsFile } from '../groups/groups-file.js';
import type { Catalog } from '../runtime/catalog.js';
import { ConfigError, loadProjectConfig, type ProjectConfig } from '../config/project.js';
import { DEFAULT_HTTP_LIMITS } from '../http/client.js';
import { envFilePath, refusalText } from '../http/secrets.js';
import { DEFAULT_ALLOWED_LIBRARIES } from '../libraries/allowlist.js';
import { builtinRefusal, installCommand, resolveLibrary } from '../libraries/resolve.js';
import { hasErrors } from '../report/findings.js';
import { formatFinding, formatHuman, terminalText, type FileReport } from '../report/format.js';
import { plural } from '../shared/plural.js';
import { DEFAULT_DEADLINE_MS, DEFAULT_MEMORY_MB, DEFAULT_WORKERS } from '../sandbox/host.js';
import { fileVerdict } from '../report/scope.js';
import { INFO_FIELDS } from '../schema/types.js';
import type { LockRead } from '../keylock/lock-file.js';
import { keyLockLines } from './serve-summary.js';
import { droppedRows, rejectedRows } from './list.js';
import { catalogOptions, displayPath, exists, openCatalog, table, type CatalogFlags } from './shared.js';
import { minimumNode } from '../shared/version.js';
import { maskedUrl } from '../shared/masked-url.js';
import { readRedisMemory, type RedisMemory } from '../state/redis-memory.js';
import { cli } from './io.js';

const CONFIG_FILE = join('.flowmcp', 'config.json');

export function registerDoctor(program: Command): void {
  catalogOptions(
    program
      .command('doctor')
      .description(
        'check the environment, configuration, keys, libraries and every file; exit 1 if any file cannot be loaded',
      ),
  ).action((flags: CatalogFlags) => runDoctor(flags));
}

async function runDoctor(flags: CatalogFlags): Promise<void> {
  const out: string[] = [];
  const problems: string[] = [];
  const node = nodeVerdict(process.versions.node, minimumNode());
  out.push(`node      ${node.text}`);
  if (!node.ok) problems.push(`Node.js ${process.versions.node} is older than ${minimumNode()}`);
  out.push(`project   ${resolve(flags.project)}`);

  // Problems that leave nothing to load: a config that cannot be used, a folder that is not there.
  const stoppers: string[] = [];
  let config: ProjectConfig | null = null;
  const configFile = join(flags.project, CONFIG_FILE);
  try {
    config = loadProjectConfig(flags.project);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    stoppers.push(`${displayPath(configFile)} cannot be used`);
    // Each finding with its line and column, and a hint where a misspelt key or value has a likely meaning.
    out.push(
      '',
      'config',
      ...error.findings.flatMap((finding) => [
        `  ${formatFinding(finding)}`,
        ...(finding.hint ? [`    hint: ${finding.hint}`] : []),
      ]),
    );
  }
  if (!exists(flags.schemas)) stoppers.push(`no schema folder ${flags.schemas}`);
  if (flags.lists !== undefined && !exists(flags.lists)) stoppers.push(`no lists folder ${flags.lists}`);
  if (!config || stoppers.length > 0) {
    out.push(
      '',
      `schemas   ${flags.schemas}: ${!exists(flags.schemas) ? 'not found' : 'not checked (fix the problems above first)'}`,
    );
    return finish(out, [...problems, ...stoppers], []);
  }

  out.push(
    '',
    `config    ${displayPath(configFile)} ${exists(configFile) ? 'found' : 'not found (defaults)'}`,
    ...configLines(config, flags.project),
  );
  if (config.redis.url !== undefined)
    out.push('', ...redisLines(maskedUrl(config.redis.url), await readRedisMemory(config.redis.url)));
  // A diagnosis runs every handlers factory now, so that one that fails is reported here.
  const catalog = await openCatalog(flags, { handlers: 'at-load' });
  try {
    out.push('', ...catalogLines(flags, catalog));
    out.push('', ...keyLines(flags.project, config, catalog));
    out.push('', ...keyLockSection(catalog, problems));
    out.push('', ...libraryLines(flags.project, catalog));
    out.push('', ...termsLines(catalog));
    out.push('', ...reachLines(catalog));
    const groups = groupsReport(flags, catalog);
    out.push('', ...groups.lines);
    const reports: FileReport[] = [...catalog.reports, ...(groups.report ? [groups.report] : [])];
    out.push(
      '',
      'findings',
      ...formatHuman(reports)
        .split('\n')
        .map((line) => `  ${line}`),
    );
    const rejected = rejectedRows(reports);
    if (rejected.length > 0)
      problems.push(
        `${plural(rejected.length, 'file')} cannot be loaded: ${rejected.map((row) => displayPath(row.file)).join(', ')}`,
      );
    const dropped = droppedRows(catalog);
    if (dropped.length > 0)
      problems.push(
        `${plural(dropped.length, 'route')} cannot be served: ${dropped.map((row) => row.reference).join(', ')}`,
      );
    finish(out, problems, [
      plural(catalog.tools.length, 'tool'),
      `${catalog.visibleTools().length} served`,
      `${catalog.tools.length - catalog.visibleTools().length} hidden`,
    ]);
  } finally {
    await catalog.close();
  }
}

function finish(out: string[], problems: readonly string[], facts: readonly string[]): void {
  out.push(
    '',
    problems.length === 0
      ? `verdict: ok, every file loads (${facts.join(', ')})`
      : `verdict: NOT OK: ${problems.join('; ')}`,
  );
  // File names and findings are the schema authors' text: printed, nothing in them acts on the terminal.
  cli().stdout.write(`${terminalText(out.join('\n'))}\n`);
  cli().exitCode = problems.length === 0 ? 0 : 1;
}

/** Whether Node.js `version` (`20.18.0`) is at least `minimum` (`20.18.1`), in doctor's words. */
export function nodeVerdict(version: string, minimum: string): { ok: boolean; text: string } {
  const parts = (text: string) => [...text.split('.').map(Number), 0, 0].slice(0, 3);
  const [have, need] = [parts(version), parts(minimum)];
  const at = have.findIndex((part, index) => part !== need[index]);
  const ok = at === -1 || (have[at] ?? 0) > (need[at] ?? 0);
  return { ok, text: `v${version} (${ok ? 'ok' : 'too old'}: flowguard needs ${minimum} or later)` };
}

/** The effective configuration, each value with where it comes from. */
function configLines(config: ProjectConfig, project: string): string[] {
  const fromConfig = 'from .flowmcp/config.json';
  const allowlist = [
    ...DEFAULT_ALLOWED_LIBRARIES.map((name) => [name, 'default', installState(name, project)]),
    ...config.allowedLibraries
      .filter((name) => !DEFAULT_ALLOWED_LIBRARIES.includes(name))
      .map((name) => [name, fromConfig, installState(name, project)]),
  ];
  const setting = (value: number | undefined, fallback: number) =>
    value === undefined ? `${fallback} (default)` : `${value} (${fromConfig})`;
  const upstreams = Object.entries(config.upstreams);
  return [
    '  allowed libraries',
    ...table(allowlist).map((line) => `    ${line}`),
    `  sandbox   deadlineMs ${setting(config.sandbox.deadlineMs, DEFAULT_DEADLINE_MS)}, memoryMb ${setting(config.sandbox.memoryMb, DEFAULT_MEMORY_MB)}, workers ${setting(config.sandbox.workers, DEFAULT_WORKERS)}`,
    `  http      ${(Object.keys(DEFAULT_HTTP_LIMITS) as (keyof typeof DEFAULT_HTTP_LIMITS)[]).map((key) => `${key} ${setting(config.http[key], DEFAULT_HTTP_LIMITS[key])}`).join(', ')}`,
    `  network   private addresses ${networkPolicy(config)}`,
    upstreams.length === 0 ? "  upstreams none (requests go to each schema's own origin)" : '  upstreams',
    ...upstreams.map(([origin, base]) => `    ${origin} -> ${base} (${fromConfig})`),
  ];
}

/**
 * The Redis of `redis.url` and its memory bound: a warning, never a problem (serve runs either
 * way), where nothing bounds it or it refuses writes once full (docs/operators/replicas.md).
 */
export function redisLines(url: string, memory: RedisMemory): string[] {
  const head = `redis     ${url} (redis.url)`;
  const advice = 'set maxmemory with maxmemory-policy volatile-lru (docs/operators/replicas.md#bounding-redis-memory)';
  if (memory.kind === 'unreachable')
    return [
      head,
      `  warning: could not be reached (${memory.reason}); serve keeps its state in each process until it can`,
    ];
  if (memory.kind === 'refused')
    return [head, `  maxmemory could not be checked: this Redis refuses CONFIG GET (${memory.reason}); ${advice}`];
  if (memory.maxmemory === 0)
    return [
      head,
      `  warning: maxmemory 0: nothing bounds the cached answers and the guard's keys but their TTLs; ${advice}`,
    ];
  const bound = `  maxmemory ${memory.maxmemory} bytes, maxmemory-policy ${memory.policy}`;
  // `noeviction` (many installs' default) refuses writes once full instead of evicting.
  if (memory.policy === 'noeviction')
    return [
      head,
      bound,
      `  warning: once full, Redis refuses writes and each replica falls back to its own state; ${advice}`,
    ];
  return [head, bound];
}

/**
 * Whether handlers could be given an allowlisted library now. Some of the default allowlist is
 * not installed with flowguard (the operator adds it when a schema needs it), so a missing one
 * is no problem until a schema names it, and then the command says how to add it.
 */
function installState(name: string, project: string): string {
  if (builtinRefusal(name) !== null) return 'never given (a built-in with host authority)';
  return resolveLibrary(name, project) ? 'installed' : `not installed (${installCommand([name], project)})`;
}

function networkPolicy(config: ProjectConfig): string {
  const { allowPrivate } = config.network;
  if (allowPrivate === true) return 'allowed for every origin (network.allowPrivate: true)';
  if (allowPrivate === false || allowPrivate.length === 0)
    return 'refused (loopback, private, link-local and other non-public addresses; upstream overrides excepted)';
  return `refused except for ${allowPrivate.join(', ')} (network.allowPrivate) and upstream overrides`;
}

function catalogLines(flags: CatalogFlags, catalog: Catalog): string[] {
  const { schemaReports, listReports, listsFolder } = catalog;
  const listsLoaded = listReports.filter((report) => !hasErrors(report.findings)).length;
  const verdicts = schemaReports.map(fileVerdict);
  const dropped = verdicts.reduce((sum, verdict) => sum + (verdict.status === 'loads' ? verdict.dropped.length : 0), 0);
  const skipped = verdicts.filter((verdict) => verdict.status === 'skipped').length;
  const extra = [
    dropped > 0 ? `${plural(dropped, 'route')} dropped` : '',
    skipped > 0 ? `${plural(skipped, 'file')} skipped (skills, prompts, agents)` : '',
  ].filter(Boolean);
  return [
    `schemas   ${displayPath(flags.schemas)}: ${plural(schemaReports.length, 'file')}, ${catalog.schemas.length} loaded, ${plural(catalog.tools.length, 'tool')}${extra.map((text) => `, ${text}`).join('')}`,
    // A catalog reads a list file only when a schema reaches its list: the folder may hold more.
    `lists     ${displayPath(listsFolder.path)}: ${exists(listsFolder.path) ? `${plural(listsFolder.files.length, 'file')}, ${listReports.length} read (reached by a schema), ${listsLoaded} loaded` : 'not found (no shared lists)'}`,
  ];
}

/**
 * Which declared keys each namespace is granted, and from where; for the others, why not and
 * the line that would grant them. Values are never read into the output.
 */
function keyLines(project: string, config: ProjectConfig, catalog: Catalog): string[] {
  const envFile = envFilePath(project);
  const envState = existsSync(envFile) ? 'present' : 'not present';
  const grants = config.keys.map(
    (grant) => `${grant.pattern} → ${grant.namespaces ? grant.namespaces.join(', ') : 'any namespace'}`,
  );
  const lines = [
    `keys      ${displayPath(envFile)} ${envState}; security.keys grants ${grants.length === 0 ? 'none (environment variables are not used)' : grants.join('; ')}`,
  ];
  const users = new Map<string, { key: string; namespace: string; files: Set<string> }>();
  for (const { schema } of catalog.schemas) {
    for (const key of schema.requiredServerParams) {
      const id = `${key}\0${schema.namespace}`;
      const entry = users.get(id) ?? { key, namespace: schema.namespace, files: new Set<string>() };
      entry.files.add(displayPath(schema.file));
      users.set(id, entry);
    }
  }
  if (users.size === 0) return [...lines, '  no loaded schema declares a key'];
  const rows = [...users.values()]
    .sort((a, b) => (a.key === b.key ? a.namespace.localeCompare(b.namespace) : a.key.localeCompare(b.key)))
    .map(({ key, namespace, files }) => {
      const access = catalog.keyAccess(key, namespace);
      const state = access.granted
        ? `granted (${access.source})`
        : `REFUSED: ${refusalText(access)}; grant with ${access.fix}`;
      const hidden = catalog.tools.filter(
        (tool) => tool.namespace === namespace && tool.missingKeys.includes(key),
      ).length;
      return [key, namespace, state, [...files].join(', '), hidden > 0 ? `${plural(hidden, 'tool')} hidden` : ''];
    });
  return [...lines, ...table(rows).map((line) => `  ${line.trimEnd()}`)];
}

/**
 * The key lock: its file, what this load recorded as first seen, and every key it holds back
 * (each a problem, with the command that accepts it once reviewed).
 */
function keyLockSection(catalog: Catalog, problems: string[]): string[] {
  const report = catalog.keyLock;
  if (!report) return ['key lock  off'];
  const state = {
    absent: 'not present (written when a key is first seen)',
    read: `${plural(countKeys(report.lock), 'key')} recorded`,
    unusable: 'CANNOT BE USED',
  }[report.lock.state];
  if (report.lock.state === 'unusable')
    problems.push(`the key lock ${displayPath(report.file)} cannot be used: review it, then ${report.acceptCommand()}`);
  if (report.held.length > 0) {
    const keys = [...new Set(report.held.map(({ key }) => key))];
    problems.push(
      `the key lock holds back ${keys.join(', ')} from ${plural(report.held.length, 'file')}: review, then ${report.acceptCommand(keys)}`,
    );
  }
  return [`key lock  ${displayPath(report.file)}: ${state}`, ...keyLockLines(catalog)];
}

function countKeys(lock: LockRead): number {
  return lock.state === 'read' ? lock.keys.size : 0;
}

/**
 * The libraries the handlers need: those of every loaded schema and of every schema rejected
 * only because a library failed to resolve (SEC103), each with where it resolves.
 */
function libraryLines(project: string, catalog: Catalog): string[] {
  const needed = new Map<string, Set<string>>();
  const add = (name: string, file: string) => needed.set(name, (needed.get(name) ?? new Set()).add(displayPath(file)));
  for (const { schema } of catalog.schemas) for (const name of schema.requiredLibraries) add(name, schema.file);
  for (const report of catalog.schemaReports.filter((candidate) =>
    candidate.findings.some((f) => f.code === 'SEC103'),
  )) {
    for (const name of report.requiredLibraries ?? []) add(name, report.file);
  }
  if (needed.size === 0) return ['libraries no loaded schema needs one'];
  const rows = [...needed.keys()].sort().map((name) => {
    const found = resolveLibrary(name, project);
    return [
      name,
      found
        ? `resolves (${displayPath(new URL(found.url).pathname)})`
        : `NOT FOUND: ${installCommand([name], project)}`,
      [...(needed.get(name) ?? [])].join(', '),
    ];
  });
  return ['libraries', ...table(rows).map((line) => `  ${line}`)];
}

/** Where the schemas with executeRequest handlers may send requests (R12); other schemas' requests are the core's own. */
function reachLines(catalog: Catalog): string[] {
  const rows = catalog.schemas.flatMap(({ file, schema }) => {
    if (!Object.values(catalog.hooksOf(file) ?? {}).some((list) => list.includes('executeRequest'))) return [];
    const reach = catalog.reach(file);
    if (!reach) return [];
    const origins = reach.origins.map(
      (entry) => `${entry.origin}${entry.keys ? ` (keys: ${entry.keys.join(', ')})` : ''}`,
    );
    return [
      [
        schema.namespace,
        displayPath(file),
        origins.join(', ') + (reach.denied.length > 0 ? `; denied: ${reach.denied.join(', ')}` : ''),
      ],
    ];
  });
  if (rows.length === 0) return ['reach     no loaded schema makes its own requests (executeRequest)'];
  return [
    'reach     where executeRequest handlers may send requests (network.allow and network.deny change it)',
    ...table(rows).map((line) => `  ${line}`),
  ];
}

/** The terms of service and data licences the loaded schemas state (4.x informational fields), as written. */
function termsLines(catalog: Catalog): string[] {
  const rows = catalog.schemas.flatMap(({ file, schema }) => {
    const given = INFO_FIELDS.filter((field) => schema.info[field] !== undefined).map(
      (field) => `${field} ${schema.info[field] ?? 'null'}`,
    );
    return given.length > 0 ? [[schema.namespace, displayPath(file), given.join('; ')]] : [];
  });
  if (rows.length === 0) return ['terms     no loaded schema states terms of service or a data licence'];
  return [
    'terms     as the schemas state them (informational; flowguard does not check them)',
    ...table(rows).map((line) => `  ${line}`),
  ];
}

function groupsReport(flags: CatalogFlags, catalog: Catalog): { lines: string[]; report: FileReport | null } {
  const file = readGroupsFile(displayPath(groupsFilePath(flags.project)));
  if (!file.exists) return { lines: [`groups    ${file.file} not present`], report: null };
  const report = checkGroups(file, catalog);
  const findings = groupsFindings(report);
  const failed = report.groups.filter((group) => !group.ok).map((group) => group.name);
  const state = hasErrors(findings)
    ? `${plural(report.groups.length, 'group')}, ${failed.length > 0 ? `failing: ${failed.join(', ')}` : 'file has errors'}`
    : `${plural(report.groups.length, 'group')}, all verify`;
  return { lines: [`groups    ${file.file}: ${state}`], report: { file: file.file, findings } };
}
