// A tool's definition as `tools/list` gives it: its name, its reference as `title` and in `_meta`,
// its description (with what it returns where no outputSchema says it), input schema, annotations
// from the HTTP method or the 4.x tool `meta`, and its outputSchema where one is advertised.

import type { Tool as McpTool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { Tool } from '../catalog/tools.js';
import type { ToolMeta } from '../schema/types.js';
import { toOutputSchema } from '../schema/tool-output.js';
import type { ServedCatalog } from './served-catalog.js';

/** `_meta` key carrying a tool's full reference. */
const META_REFERENCE = 'flowguard/reference';
/** `_meta` keys of the 4.x tool `meta` (SPEC-NOTES-v3-v4 §2): the spec names the first two; the others have no MCP counterpart. */
const META_ALWAYS_LOAD = 'anthropic/alwaysLoad';
const META_SEARCH_HINT = 'anthropic/searchHint';
const META_ALIASES = 'flowguard/aliases';
const META_CONCURRENCY_SAFE = 'flowguard/concurrencySafe';

/** A tool's whole definition as `tools/list` of `--tools all` gives it, uncut (`flowguard describe`, describe_tool). */
export function toolDefinition(catalog: Pick<ServedCatalog, 'outputValidation'>, tool: Tool): McpTool {
  return listingOf(tool, catalog.outputValidation === 'error' ? toOutputSchema(tool.route.output) : undefined);
}

export function listingOf(tool: Tool, outputSchema: Record<string, unknown> | undefined): McpTool {
  const { meta, output } = tool.route;
  const entry: McpTool = {
    name: tool.name,
    title: tool.reference,
    // Without an outputSchema to carry it, what the tool returns is said in its description.
    description:
      output?.description && !outputSchema ? `${tool.description}\n\nReturns: ${output.description}` : tool.description,
    inputSchema: tool.input.schema as McpTool['inputSchema'],
    annotations: annotationsFor(tool.method, meta),
    _meta: { [META_REFERENCE]: tool.reference },
  };
  if (meta) {
    Object.assign(entry._meta as object, {
      [META_ALWAYS_LOAD]: meta.alwaysLoad,
      [META_SEARCH_HINT]: meta.searchHint,
      [META_ALIASES]: meta.aliases,
      [META_CONCURRENCY_SAFE]: meta.concurrencySafe,
    });
  }
  if (outputSchema) entry.outputSchema = outputSchema as McpTool['outputSchema'];
  return entry;
}

/**
 * Hints from the HTTP method, or from the tool's 4.x `meta` where it has one (the author knows
 * better than the method: a POST search reads only): every tool reaches an outside API (open
 * world); `destructiveHint` and `idempotentHint` only mean something for a tool that writes.
 */
function annotationsFor(method: Tool['method'], meta?: ToolMeta): ToolAnnotations {
  if (!meta) return methodAnnotations(method);
  if (meta.readOnly) return { readOnlyHint: true, openWorldHint: true };
  const annotations: ToolAnnotations = { readOnlyHint: false, destructiveHint: meta.destructive, openWorldHint: true };
  if (method === 'PUT' || method === 'DELETE') annotations.idempotentHint = true;
  return annotations;
}

function methodAnnotations(method: Tool['method']): ToolAnnotations {
  switch (method) {
    case 'GET':
      return { readOnlyHint: true, openWorldHint: true };
    case 'PUT':
      return { readOnlyHint: false, idempotentHint: true, openWorldHint: true };
    case 'DELETE':
      return { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true };
    case 'POST':
      return { readOnlyHint: false, openWorldHint: true };
  }
}
