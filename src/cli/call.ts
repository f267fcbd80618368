// `flowguard call <tool>`: one tool call from the command line, exactly as an AI client's call
// would run (the same catalog, sandbox, secrets and HTTP client), or with `--dry-run` the
// request it would send, keys redacted.

import type { Command } from 'commander';
import type { CallResult, DryRunResult } from '../call/outcome.js';
import type { Catalog } from '../runtime/catalog.js';
import type { Tool } from '../catalog/tools.js';
import { hasErrors } from '../report/findings.js';
import { terminalJson, terminalText } from '../report/format.js';
import { plural } from '../shared/plural.js';
import { isRecord } from '../shared/raw.js';
import { keyProblem, keyProblemText } from './list.js';
import { catalogOptions, collect, openCatalog, type CatalogFlags } from './shared.js';
import { UsageError } from '../errors/flowguard-error.js';
import { cli } from './io.js';

interface CallFlags extends CatalogFlags {
  args?: string;
  arg: string[];
  dryRun?: boolean;
  json?: boolean;
}

export function registerCall(program: Command): void {
  catalogOptions(
    program
      .command('call')
      .description('call one tool (by MCP name or namespace/file.mjs::route) and print its result')
      .argument('<tool>', 'the tool name or full reference')
      .option('--args <json>', 'all arguments as one JSON object')
      .option('--arg <key=value>', 'one argument (repeatable); typed by the parameter', collect, [])
      .option('--dry-run', 'print the request that would be sent (keys redacted) instead of sending it')
      .option('--json', 'print the whole result as JSON'),
    { upstream: true },
  ).action((name: string, flags: CallFlags) => runCall(name, flags));
}

async function runCall(name: string, flags: CallFlags): Promise<void> {
  const catalog = await openCatalog(flags);
  try {
    const tool = catalog.tool(name);
    if (!tool) throw new UsageError(unknownToolMessage(name, catalog));
    const args = readArguments(tool, flags);
    const controller = new AbortController();
    const abort = () => controller.abort();
    process.once('SIGINT', abort);
    const result = await catalog.call(tool.name, args, { dryRun: flags.dryRun, signal: controller.signal });
    process.off('SIGINT', abort);
    // The result is the upstream's answer: what is printed escapes what would act on a terminal.
    cli().stdout.write(
      `${flags.json ? terminalJson(JSON.stringify(result, null, 2)) : terminalText(formatResult(result))}\n`,
    );
    // Who runs `call` is the operator: a missing key is theirs to grant, as `list` says.
    if (!result.ok && result.error.kind === 'missing-keys')
      cli().stderr.write(
        `${tool.missingKeys.map((key) => `  ${keyProblemText(keyProblem(catalog, key, tool))}`).join('\n')}\n`,
      );
    cli().exitCode = result.ok ? 0 : 1;
  } finally {
    await catalog.close();
  }
}

function unknownToolMessage(name: string, catalog: Catalog): string {
  const names = catalog.tools.map((tool) => tool.name);
  const near = names.filter((candidate) => candidate.includes(name) || name.includes(candidate)).slice(0, 5);
  const rejected = catalog.reports.filter((report) => hasErrors(report.findings)).length;
  return [
    `no tool named '${name}'`,
    near.length > 0
      ? `did you mean: ${near.join(', ')}?`
      : `${plural(names.length, 'tool')} loaded; \`flowguard validate\` lists the files`,
    rejected > 0 ? `${plural(rejected, 'file')} could not be loaded; run \`flowguard validate\` to see why` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

/** `--args` as given, then each `--arg k=v` typed by the tool's parameter of that name. */
function readArguments(tool: Tool, flags: CallFlags): Record<string, unknown> {
  let args: Record<string, unknown> = {};
  if (flags.args !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(flags.args);
    } catch (error) {
      throw new UsageError(`--args is not valid JSON: ${(error as Error).message}`);
    }
    if (!isRecord(parsed)) throw new UsageError('--args must be a JSON object');
    args = parsed;
  }
  for (const pair of flags.arg) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`--arg ${pair}: expected key=value`);
    const key = pair.slice(0, at);
    args[key] = typedArgument(tool, key, pair.slice(at + 1));
  }
  return args;
}

function typedArgument(tool: Tool, key: string, text: string): unknown {
  const type = tool.route.parameters.find((param) => param.key === key)?.type.kind;
  switch (type) {
    case 'number':
      return text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : text;
    case 'array':
      return text.startsWith('[') ? parseJsonOr(text) : text.split(',');
    case 'object':
      return parseJsonOr(text);
    default:
      // Unknown keys and strings stay text; the tool's validation names anything wrong.
      return text;
  }
}

function parseJsonOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Not JSON: shown as the text it is.
    return text;
  }
}

function formatResult(result: CallResult | DryRunResult): string {
  if (!result.ok) return `error (${result.error.kind}): ${result.error.message}`;
  if ('dryRun' in result) {
    const { method, url, headers, body } = result.dryRun;
    const lines = [`${method} ${url}`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
    if (body !== undefined) lines.push('', body);
    return lines.join('\n');
  }
  const { content } = result;
  switch (content.kind) {
    case 'json':
      return JSON.stringify(content.value, null, 2);
    case 'text':
      return content.value;
    case 'image':
    case 'binary':
      return `[${content.mimeType}, ${Buffer.byteLength(content.base64, 'base64')} bytes; use --json for the base64 data]`;
    case 'empty':
      return '(empty response)';
  }
}
