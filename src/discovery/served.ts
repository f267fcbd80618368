// Discovery mode on a server's tool table: the short listing (meta-tools, then the `alwaysLoad`
// tools) and the answers of the meta-tools. The index is built on the first search from the
// tools the table serves (a tool whose key is not granted is not among them) and lives as long
// as the table: a reload that changes the tools makes a new table, so a new index.

import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { Tool } from '../catalog/tools.js';
import { ToolIndex } from './tool-index.js';
import {
  CALL_TOOL,
  DESCRIBE_TOOL,
  META_TOOL_NAMES,
  META_TOOLS,
  MetaArgumentError,
  callTarget,
  describeTool,
  searchTools,
} from './meta-tools.js';

/** `all`: every served tool in tools/list. `search`: the meta-tools and `alwaysLoad` tools. */
export type DiscoveryMode = 'all' | 'search';

/** What discovery needs of a server's tool table. */
export interface ServedTable {
  /** The definitions as listed (a large one cut to fit a model's context). */
  listing: readonly McpTool[];
  /** The definitions whole: what describe_tool gives. */
  full: readonly McpTool[];
  byName: ReadonlyMap<string, { tool: Tool }>;
  /** Where its search index is cached (index-cache.ts). */
  indexCache?: string;
}

interface Discovery {
  shortListing: readonly McpTool[];
  byName: ReadonlyMap<string, McpTool>;
  index?: ToolIndex;
}

const discoveries = new WeakMap<ServedTable, Discovery>();

function discoveryOf(table: ServedTable): Discovery {
  let found = discoveries.get(table);
  if (!found) {
    // A served tool that takes a meta-tool's name stays callable through call_tool.
    const always = table.listing.filter(
      (entry) => table.byName.get(entry.name)?.tool.route.meta?.alwaysLoad === true && !META_TOOL_NAMES.has(entry.name),
    );
    found = {
      shortListing: Object.freeze([...META_TOOLS, ...always]),
      byName: new Map(table.full.map((entry) => [entry.name, entry])),
    };
    discoveries.set(table, found);
  }
  return found;
}

export function discoveryListing(table: ServedTable): readonly McpTool[] {
  return discoveryOf(table).shortListing;
}

/** The table's search index, built on first need. */
export function toolIndexOf(table: ServedTable): ToolIndex {
  const discovery = discoveryOf(table);
  return (discovery.index ??= new ToolIndex(
    [...table.byName.values()].map((served) => served.tool),
    { cacheDir: table.indexCache },
  ));
}

export function isMetaCall(name: string): boolean {
  return META_TOOL_NAMES.has(name);
}

/** A meta-tool's answer; `call` runs the tool `call_tool` names, as a direct call would. */
export async function answerMetaCall(
  table: ServedTable,
  name: string,
  args: Record<string, unknown>,
  call: (name: string, args: Record<string, unknown>) => Promise<CallToolResult>,
): Promise<CallToolResult> {
  try {
    if (name === CALL_TOOL) {
      const target = callTarget(args);
      return await call(target.name, target.arguments);
    }
    if (name === DESCRIBE_TOOL) return describeTool(discoveryOf(table).byName, args);
    return searchTools(toolIndexOf(table), discoveryOf(table).byName, args);
  } catch (error) {
    // Arguments that do not fit are the agent's to fix: said in the result, as a tool's own failures are.
    if (error instanceof MetaArgumentError) return { isError: true, content: [{ type: 'text', text: error.message }] };
    throw error;
  }
}
