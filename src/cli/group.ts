// `flowguard group create|verify|list`: the tool groups of a project, `.flowmcp/groups.json`
// (src/groups/groups-file.ts, verify.ts, write.ts). `create` records a group with
// the hashes of its tools and its content record (schema files, shared lists, library versions)
// as they are now; `verify` says, tool by tool and file by file, what no longer matches; `list`
// shows the groups.

import type { Command } from 'commander';
import { checkGroups, selectGroup, type GroupCheck } from '../groups/verify.js';
import { buildGroup, withGroup, writeGroupsFile } from '../groups/write.js';
import { groupsFilePath, readGroupsFile, type GroupsFile } from '../groups/groups-file.js';
import { hasErrors, isError, type Finding } from '../report/findings.js';
import { formatFinding, terminalJson, terminalText } from '../report/format.js';
import { plural } from '../shared/plural.js';
import { shellWord } from '../shared/shell-word.js';
import { catalogOptions, displayPath, openCatalog, table, type CatalogFlags } from './shared.js';
import { UsageError } from '../errors/flowguard-error.js';
import { cli } from './io.js';

interface CreateFlags extends CatalogFlags {
  tools?: string;
  description?: string;
  force?: boolean;
}

interface ListFlags extends CatalogFlags {
  json?: boolean;
}

export function registerGroup(program: Command): void {
  const group = program.command('group').description('create, verify and list tool groups (.flowmcp/groups.json)');

  catalogOptions(
    group
      .command('create')
      .description(
        'record a group of tools with their current hashes and content (schema files, shared lists, library versions)',
      )
      .argument('<name>', 'group name: lowercase letters, digits and -')
      .option('--tools <refs>', 'comma-separated tool references (namespace/file.mjs::route) or tool names')
      .option('--description <text>', 'what the group is for')
      .option('--force', 'replace a group of that name (without --tools: record its tools again)'),
  ).action((name: string, flags: CreateFlags) => runCreate(name, flags));

  catalogOptions(
    group
      .command('verify')
      .description(
        'check that every tool of a group (or of every group) still resolves and matches its hash, and its schema files, shared lists and libraries their content record; exit 1 if not',
      )
      .argument('[name]', 'one group; default every group'),
  ).action((name: string | undefined, flags: CatalogFlags) => runVerify(name, flags));

  catalogOptions(
    group
      .command('list')
      .description('list the groups with their tools and whether they verify')
      .option('--json', 'print machine-readable output'),
  ).action((flags: ListFlags) => runList(flags));
}

function readFile(flags: CatalogFlags): GroupsFile {
  return readGroupsFile(displayPath(groupsFilePath(flags.project)));
}

async function runCreate(name: string, flags: CreateFlags): Promise<void> {
  const file = readFile(flags);
  if (hasErrors(file.findings)) {
    printFindings(file.findings);
    cli().stdout.write(`${file.file} has errors and is not rewritten; fix it first\n`);
    cli().exitCode = 1;
    return;
  }
  const existing = file.groups.find((entry) => entry.name === name);
  if (existing && !flags.force)
    throw new UsageError(`a group named '${name}' exists in ${file.file}; --force replaces it`);
  const tools = flags.tools !== undefined ? splitList(flags.tools) : existing?.group?.tools;
  if (tools === undefined)
    throw new UsageError(
      existing ? `the group '${name}' cannot be read; give its tools with --tools` : '--tools <refs> is required',
    );

  const catalog = await openCatalog(flags);
  try {
    const built = buildGroup(catalog, file, name, tools, {
      description: flags.description ?? existing?.group?.description ?? '',
      prompts: existing?.group?.prompts,
    });
    printFindings(built.findings);
    if (!built.group) {
      cli().stdout.write(`group '${name}' not written\n`);
      cli().exitCode = 1;
      return;
    }
    writeGroupsFile(file.file, withGroup(file, name, built.group));
    const count = built.group.tools.length;
    cli().stdout.write(
      `${existing ? 'replaced' : 'created'} group '${name}' with ${plural(count, 'tool')} in ${file.file} (hash ${built.group.hash ?? 'null'})\n`,
    );
    cli().exitCode = 0;
  } finally {
    await catalog.close();
  }
}

async function runVerify(name: string | undefined, flags: CatalogFlags): Promise<void> {
  const file = readFile(flags);
  const catalog = await openCatalog(flags);
  try {
    if (name !== undefined) {
      const selection = selectGroup(catalog, file, name);
      printFindings(selection.findings);
      cli().stdout.write(
        selection.ok ? `${name}: ok (${plural(selection.tools.length, 'tool')})\n` : `${name}: FAILED\n`,
      );
      cli().exitCode = selection.ok ? 0 : 1;
      return;
    }
    if (!file.exists) {
      cli().stdout.write(`no groups: ${file.file} does not exist\n`);
      cli().exitCode = 0;
      return;
    }
    const report = checkGroups(file, catalog);
    printFindings(report.findings);
    for (const group of report.groups) printFindings(group.findings);
    const lines = report.groups.map(
      (group) =>
        `${group.name}: ${group.ok ? `ok (${plural(group.tools.length, 'tool')})` : `FAILED (${codesOf(group)})`}`,
    );
    const failed = report.groups.filter((group) => !group.ok).length + (hasErrors(report.findings) ? 1 : 0);
    lines.push(
      failed === 0
        ? `${plural(report.groups.length, 'group')} verified`
        : hasErrors(report.findings)
          ? `${file.file} has errors`
          : `${failed} of ${plural(report.groups.length, 'group')} failed`,
    );
    cli().stdout.write(`${lines.join('\n')}\n`);
    cli().exitCode = failed === 0 ? 0 : 1;
  } finally {
    await catalog.close();
  }
}

async function runList(flags: ListFlags): Promise<void> {
  const file = readFile(flags);
  const catalog = await openCatalog(flags);
  try {
    const report = checkGroups(file, catalog);
    const groups = report.groups.map((group) => ({
      name: group.name,
      description: group.group?.description ?? null,
      tools: group.group?.tools ?? [],
      hash: group.group?.hash ?? null,
      contentHash: group.group?.contentHash ?? null,
      status: group.ok ? ('ok' as const) : ('failed' as const),
      findings: group.findings,
    }));
    if (flags.json) {
      // References hold schema files' names, the authors' text: printed, nothing in them acts on the terminal.
      cli().stdout.write(
        `${terminalJson(JSON.stringify({ file: file.file, exists: file.exists, findings: report.findings, groups }, null, 2))}\n`,
      );
    } else if (!file.exists) {
      cli().stdout.write(
        `no groups: ${file.file} does not exist (flowguard group create NAME --tools REF,REF makes one)\n`,
      );
    } else {
      printFindings(report.findings);
      const rows = table([
        ['GROUP', 'TOOLS', 'STATUS', 'DESCRIPTION'],
        ...report.groups.map((group) => [
          group.name,
          String(group.group?.tools.length ?? '?'),
          group.ok ? 'ok' : `failed (${codesOf(group)})`,
          group.group?.description ?? '',
        ]),
      ]);
      for (const group of report.groups.filter((candidate) => candidate.group)) {
        rows.push('', `${group.name}:`, ...(group.group?.tools ?? []).map((ref) => `  ${ref}`));
      }
      cli().stdout.write(`${terminalText(rows.join('\n'))}\n`);
    }
    cli().exitCode = hasErrors(report.findings) ? 1 : 0;
  } finally {
    await catalog.close();
  }
}

/**
 * The command that records `name` again over the catalog these flags load: the way to approve a
 * reviewed change. Flags at their defaults are left out.
 */
export function recordCommand(name: string, flags: CatalogFlags): string {
  const args = ['flowguard', 'group', 'create', name, '--force'];
  if (flags.schemas !== 'schemas') args.push('--schemas', flags.schemas);
  if (flags.lists !== undefined) args.push('--lists', flags.lists);
  if (flags.project !== '.') args.push('--project', flags.project);
  return args.map(shellWord).join(' ');
}

function splitList(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function printFindings(findings: readonly Finding[]): void {
  for (const finding of findings) {
    cli().stdout.write(`${formatFinding(finding)}\n`);
    if (finding.hint) cli().stdout.write(`    hint: ${finding.hint}\n`);
  }
}

function codesOf(group: GroupCheck): string {
  return [...new Set(group.findings.filter(isError).map((f) => f.code))].join(', ');
}
