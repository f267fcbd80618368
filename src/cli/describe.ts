// `flowguard describe <tool>`: one tool's whole definition as an MCP client receives it (name,
// title, description, input schema, output schema, annotations), uncut: what to read before
// calling a tool from the command line, and what discovery mode's describe_tool answers.

import type { Command } from 'commander';
import { terminalJson } from '../report/format.js';
import { plural } from '../shared/plural.js';
import { catalogOptions, openCatalog, type CatalogFlags } from './shared.js';
import { UsageError } from '../errors/flowguard-error.js';
import { cli } from './io.js';

export function registerDescribe(program: Command): void {
  catalogOptions(
    program
      .command('describe')
      .description("print one tool's definition as tools/list gives it (input and output schema, annotations), as JSON")
      .argument('<tool>', 'the tool name or full reference'),
  ).action((name: string, flags: CatalogFlags) => runDescribe(name, flags));
}

async function runDescribe(name: string, flags: CatalogFlags): Promise<void> {
  const catalog = await openCatalog(flags);
  try {
    const tool = catalog.tool(name);
    if (!tool)
      throw new UsageError(
        `no tool named '${name.slice(0, 100)}'; \`flowguard list\` names the ${plural(catalog.tools.length, 'tool')} of this catalog`,
      );
    // The MCP layer makes the definition; it loads only for this command.
    const { toolDefinition } = await import('../mcp/tool-definition.js');
    cli().stdout.write(`${terminalJson(JSON.stringify(toolDefinition(catalog, tool), null, 2))}\n`);
    if (tool.missingKeys.length > 0)
      cli().stderr.write(
        `flowguard: ${tool.name} is not served: ${tool.missingKeys.join(', ')} not granted or held back by the key lock (\`flowguard list\` says why and what to run)\n`,
      );
  } finally {
    await catalog.close();
  }
}
