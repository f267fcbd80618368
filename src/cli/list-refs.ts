// `flowguard list-refs <list>`: which tools a change to a shared list can affect (the reverse
// index of src/schema/list-index.ts), for a maintainer about to edit the list: per field, the
// tools whose enums are made from it, and every tool that can see the list at all (those, and the
// routes with handlers in a schema that declares it: handlers get every declared list whole).

import type { Command } from 'commander';
import { buildListIndex } from '../schema/list-index.js';
import { terminalJson, terminalText } from '../report/format.js';
import { plural } from '../shared/plural.js';
import { catalogOptions, openCatalog, type CatalogFlags } from './shared.js';
import { cli } from './io.js';

interface ListRefsFlags extends CatalogFlags {
  json?: boolean;
}

interface ListRefs {
  list: string;
  /** Field → the tools whose enums interpolate it, in schema and route order. */
  fields: Record<string, string[]>;
  /** Every tool that can see the list: the fields' tools, and handlers' routes of schemas declaring it. */
  tools: string[];
}

export function registerListRefs(program: Command): void {
  catalogOptions(
    program
      .command('list-refs')
      .description('the tools a change to a shared list can affect: per field, and every tool that can see the list')
      .argument('<list>', "the list's name (meta.name, as main.sharedLists[].ref names it)")
      .option('--json', 'print the references as JSON'),
  ).action((list: string, flags: ListRefsFlags) => runListRefs(list, flags));
}

async function runListRefs(list: string, flags: ListRefsFlags): Promise<void> {
  const catalog = await openCatalog(flags);
  let refs: ListRefs;
  try {
    refs = listRefs(buildListIndex(catalog.schemas.map((entry) => entry.schema)), list);
  } finally {
    await catalog.close();
  }
  if (flags.json) {
    // List and tool names are schema text: printed, they cannot act on a terminal.
    cli().stdout.write(`${terminalJson(JSON.stringify(refs))}\n`);
    return;
  }
  cli().stdout.write(terminalText(listRefsText(refs)));
}

/** The entries of `index` for `list`: its fields' tools and all its tools. */
function listRefs(index: ReadonlyMap<string, readonly string[]>, list: string): ListRefs {
  const fields: Record<string, string[]> = {};
  const prefix = `${list}:`;
  for (const [key, tools] of index) if (key.startsWith(prefix)) fields[key.slice(prefix.length)] = [...tools];
  return { list, fields, tools: [...(index.get(list) ?? [])] };
}

function listRefsText({ list, fields, tools }: ListRefs): string {
  if (tools.length === 0) return `No tool of the loaded schemas can see the list '${list}'.\n`;
  const lines = [`${list}: ${plural(tools.length, 'tool')} can see it`];
  for (const [field, fieldTools] of Object.entries(fields)) {
    lines.push(`  field ${field}, in the enums of ${plural(fieldTools.length, 'tool')}:`);
    for (const tool of fieldTools) lines.push(`    ${tool}`);
  }
  const throughHandlers = tools.filter(
    (tool) => !Object.values(fields).some((fieldTools) => fieldTools.includes(tool)),
  );
  if (throughHandlers.length > 0) {
    lines.push(`  through handlers only (they get the whole list), ${plural(throughHandlers.length, 'tool')}:`);
    for (const tool of throughHandlers) lines.push(`    ${tool}`);
  }
  return `${lines.join('\n')}\n`;
}
