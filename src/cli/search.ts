// `flowguard search <query>`: the served tools that fit a request, best first, ranked by the
// index discovery mode's search_tools uses (src/discovery/), for a person choosing a tool or an
// author checking that theirs is found.

import type { Command } from 'commander';
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT, firstLine } from '../discovery/meta-tools.js';
import { searchCacheDir } from '../discovery/index-cache.js';
import { ToolIndex } from '../discovery/tool-index.js';
import { terminalJson, terminalText } from '../report/format.js';
import { plural } from '../shared/plural.js';
import { catalogOptions, openCatalog, type CatalogFlags } from './shared.js';
import { UsageError } from '../errors/flowguard-error.js';
import { cli } from './io.js';

interface SearchFlags extends CatalogFlags {
  limit: string;
  json?: boolean;
}

export function registerSearch(program: Command): void {
  catalogOptions(
    program
      .command('search')
      .description('rank the served tools of the catalog for a request, as search_tools does in discovery mode')
      .argument('<query...>', 'what the tool should do, in plain words')
      .option('--limit <n>', `at most this many tools (1 to ${MAX_SEARCH_LIMIT})`, String(DEFAULT_SEARCH_LIMIT))
      .option('--json', 'print machine-readable rows'),
  ).action((words: string[], flags: SearchFlags) => runSearch(words.join(' '), flags));
}

async function runSearch(query: string, flags: SearchFlags): Promise<void> {
  const limit = Number(flags.limit);
  if (!/^\d+$/.test(flags.limit.trim()) || limit < 1 || limit > MAX_SEARCH_LIMIT)
    throw new UsageError(`--limit must be a whole number from 1 to ${MAX_SEARCH_LIMIT}, not '${flags.limit}'`);
  const catalog = await openCatalog(flags);
  try {
    const tools = new Map(catalog.visibleTools().map((tool) => [tool.name, tool]));
    const hits = new ToolIndex([...tools.values()], { cacheDir: searchCacheDir(catalog.project) })
      .find(query, { limit })
      .map((hit) => {
        const tool = tools.get(hit.name);
        return { ...hit, reference: tool?.reference, description: firstLine(tool?.description ?? '') };
      });
    if (flags.json) {
      // Names and descriptions are schema text: printed, they cannot act on a terminal.
      cli().stdout.write(`${terminalJson(JSON.stringify({ query, tools: hits }))}\n`);
      return;
    }
    if (hits.length === 0) {
      cli().stdout.write(terminalText(`No served tool fits "${query}" (${plural(tools.size, 'tool')} searched).\n`));
      return;
    }
    for (const hit of hits)
      cli().stdout.write(terminalText(`${hit.score.toFixed(1).padStart(7)}  ${hit.name}  ${hit.description}\n`));
  } finally {
    await catalog.close();
  }
}
