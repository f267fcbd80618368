// Discovery mode's three meta-tools: what an agent is shown instead of thousands of tools. Their
// definitions are kept short (they are the whole listing's cost; the bench counts their tokens).
// `search_tools` and `describe_tool` are answered here; `call_tool` only names the tool and its
// arguments: the server runs it through the very path of a direct `tools/call`.

import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolIndex } from './tool-index.js';
import { FlowguardError } from '../errors/flowguard-error.js';
import { plural } from '../shared/plural.js';

export const SEARCH_TOOLS = 'search_tools';
export const DESCRIBE_TOOL = 'describe_tool';
export const CALL_TOOL = 'call_tool';
export const META_TOOL_NAMES: ReadonlySet<string> = new Set([SEARCH_TOOLS, DESCRIBE_TOOL, CALL_TOOL]);

export const DEFAULT_SEARCH_LIMIT = 8;
export const MAX_SEARCH_LIMIT = 25;

const NAME = { type: 'string', minLength: 1, maxLength: 200, description: 'A tool name from search_tools.' } as const;

export const META_TOOLS: readonly McpTool[] = Object.freeze<McpTool[]>([
  {
    name: SEARCH_TOOLS,
    title: 'Search tools',
    description:
      'Find the tools of this server that fit a request, best first. Describe the task in plain words (English works best). An empty list means no tool here fits.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1, maxLength: 500, description: 'What you want to do or know.' },
        limit: { type: 'integer', minimum: 1, maximum: MAX_SEARCH_LIMIT, default: DEFAULT_SEARCH_LIMIT },
        namespace: { type: 'string', description: 'Only tools of this namespace (API).' },
      },
      required: ['query'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: DESCRIBE_TOOL,
    title: 'Describe a tool',
    description:
      "A tool's full definition: description, input schema (the arguments call_tool needs), output schema, annotations.",
    inputSchema: { type: 'object', properties: { name: NAME }, required: ['name'], additionalProperties: false },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: CALL_TOOL,
    title: 'Call a tool',
    description:
      "Call a tool found with search_tools, with arguments matching its input schema (describe_tool). The result is the tool's own.",
    inputSchema: {
      type: 'object',
      properties: { name: NAME, arguments: { type: 'object', description: "The tool's arguments." } },
      required: ['name'],
      additionalProperties: false,
    },
    annotations: { openWorldHint: true },
  },
]);

/** A meta-tool's arguments that do not fit its input schema: the message says which and why. */
export class MetaArgumentError extends FlowguardError {
  constructor(message: string) {
    super('ERR010', message);
  }
}

/** `search_tools`: the hits as structured content, and a short text of the same for clients that read only text. */
export function searchTools(
  index: ToolIndex,
  listing: ReadonlyMap<string, McpTool>,
  args: Record<string, unknown>,
): CallToolResult {
  const { query, limit = DEFAULT_SEARCH_LIMIT, namespace } = args;
  if (typeof query !== 'string' || query.trim() === '' || query.length > 500)
    throw new MetaArgumentError(`${SEARCH_TOOLS}: query must be a non-empty string of at most 500 characters`);
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT)
    throw new MetaArgumentError(`${SEARCH_TOOLS}: limit must be a whole number from 1 to ${MAX_SEARCH_LIMIT}`);
  if (namespace !== undefined && typeof namespace !== 'string')
    throw new MetaArgumentError(`${SEARCH_TOOLS}: namespace must be a string`);
  const tools = index.find(query, { limit, namespace }).map((hit) => {
    const entry = listing.get(hit.name) as McpTool;
    return {
      name: hit.name,
      title: entry.title ?? hit.name,
      description: firstLine(entry.description ?? ''),
      namespace: hit.namespace,
      readOnly: entry.annotations?.readOnlyHint === true,
      score: hit.score,
    };
  });
  const text =
    tools.length === 0
      ? `No tool of this server fits "${query.slice(0, 200)}"${namespace === undefined ? '' : ` in namespace ${namespace.slice(0, 100)}`}. Try other words, or the task cannot be done here.`
      : [
          `${plural(tools.length, 'tool')}, best first (describe_tool shows one's arguments; call_tool runs it):`,
          ...tools.map((tool) => `- ${tool.name}: ${tool.description}`),
        ].join('\n');
  return { content: [{ type: 'text', text }], structuredContent: { tools } };
}

/** `describe_tool`: the whole definition, as `tools/list` in full mode gives it before a large one is cut to fit (schema/affordable.ts). */
export function describeTool(listing: ReadonlyMap<string, McpTool>, args: Record<string, unknown>): CallToolResult {
  const { name } = args;
  if (typeof name !== 'string' || name === '')
    throw new MetaArgumentError(`${DESCRIBE_TOOL}: name must be a tool name (a string)`);
  const entry = listing.get(name);
  if (!entry)
    return {
      isError: true,
      content: [
        {
          type: 'text',
          text: `No tool named ${name.slice(0, 100)} is served here; search_tools finds tools by what they do.`,
        },
      ],
    };
  return { content: [{ type: 'text', text: JSON.stringify(entry) }], structuredContent: { tool: entry } };
}

/** `call_tool`'s target and arguments. */
export function callTarget(args: Record<string, unknown>): { name: string; arguments: Record<string, unknown> } {
  const { name, arguments: toolArgs = {} } = args;
  if (typeof name !== 'string' || name === '')
    throw new MetaArgumentError(`${CALL_TOOL}: name must be a tool name (a string)`);
  if (typeof toolArgs !== 'object' || toolArgs === null || Array.isArray(toolArgs))
    throw new MetaArgumentError(`${CALL_TOOL}: arguments must be an object of the tool's arguments`);
  return { name, arguments: toolArgs as Record<string, unknown> };
}

/** A period that ends one of these ends no sentence: "for a location, e.g. Berlin" goes on. */
const ABBREVIATION = /(?:^|[\s(])(?:e\.g|i\.e|etc|vs|cf|approx|incl)\.$/i;

/** The first sentence or line of a description, at most 200 characters. */
export function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  let sentence = line;
  for (const end of line.matchAll(/[.!?](?=\s|$)/g)) {
    const upTo = line.slice(0, end.index + 1);
    if (end[0] === '.' && ABBREVIATION.test(upTo)) continue;
    sentence = upTo;
    break;
  }
  return sentence.length > 200 ? `${sentence.slice(0, 199)}…` : sentence;
}
