// Skills, prompts and group prompts as MCP prompts (README "Prompts"): `prompts/list` and
// `prompts/get` on the catalog current when the request arrives (`serve --watch` swaps it).
//
// - Arguments are the prompt's `input[]` (name, description with an enum's values, required).
// - `{{input:x}}` is filled with the argument; an optional one not given reads `(not given)`, so
//   the text never says "If  is provided".
// - `{{tool:ns/name}}` becomes the name of the tool as this server's client sees it (R8). A tool
//   the server does not offer (hidden for a missing key, outside the group or the caller's
//   identity, or unknown) is named as written with a note saying it is not available, never by a
//   name the client cannot call. An identity lists and gets no prompt of another's namespace.
// - An unknown prompt, a missing required argument, a value outside an enum or arguments that
//   would fill in more than MAX_FILLED_CHARS is InvalidParams, naming the prompt or the argument.

import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  McpError,
  type GetPromptResult,
  type Prompt,
  type PromptMessage,
} from '@modelcontextprotocol/sdk/types.js';
import type { LiveCatalog } from './live-catalog.js';
import type { ServedCatalog as Catalog } from './served-catalog.js';
import type { Tool } from '../catalog/tools.js';
import type { IdentityPolicy } from '../access/identities.js';
import { fillPlaceholders } from '../prompts/placeholders.js';
import { toolsNamed, type ServedPrompt } from '../prompts/served.js';
import type { PromptAttachment, PromptInput } from '../prompts/types.js';

export interface PromptSelection {
  /** Serve these prompts instead of the catalog's (a group's). */
  prompts?: readonly ServedPrompt[];
  /** The tools the server offers, when not every visible tool of the catalog (a group). */
  tools?: readonly Tool[];
  /**
   * The caller's identity narrows both (promise 13): it gets the prompts of no namespace and of
   * the namespaces of its own tools, and a tool it cannot call is named as unavailable.
   */
  policy?: Pick<IdentityPolicy, 'select'>;
}

const NOT_GIVEN = '(not given)';
/**
 * Most characters the arguments fill into one answer, each use counted: a file that repeats
 * `{{input:x}}` would otherwise make a client's 4 MB argument an answer of gigabytes.
 */
const MAX_FILLED_CHARS = 1_048_576;

export function registerPrompts(server: Server, live: LiveCatalog, selection: PromptSelection): void {
  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: promptsOf(live.current, selection).map(listingOf),
  }));
  server.setRequestHandler(GetPromptRequestSchema, (request) => {
    const catalog = live.current;
    const { name, arguments: given = {} } = request.params;
    const prompt = promptsOf(catalog, selection).find((entry) => entry.name === name);
    if (!prompt)
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown prompt: ${name.slice(0, 100)}. prompts/list names the prompts of this server.`,
      );
    checkArguments(prompt, given);
    return render(prompt, given, servedTools(catalog, selection));
  });
}

/** A listing of the prompts served, to tell whether a reload changed them. */
export function promptListing(catalog: Catalog, selection: PromptSelection): string {
  return JSON.stringify(promptsOf(catalog, selection).map(listingOf));
}

function promptsOf(catalog: Catalog, selection: PromptSelection): readonly ServedPrompt[] {
  const prompts = selection.prompts ?? catalog.prompts;
  if (!selection.policy) return prompts;
  const namespaces = new Set(servedTools(catalog, selection).map((tool) => tool.namespace));
  return prompts.filter((prompt) => prompt.namespace === null || namespaces.has(prompt.namespace));
}

/** The tools a prompt may name by their MCP name: the visible ones the server offers, narrowed to the caller's identity. */
function servedTools(catalog: Catalog, selection: PromptSelection): readonly Tool[] {
  const offered = new Set(catalog.visibleTools());
  const served = selection.tools ? selection.tools.filter((tool) => offered.has(tool)) : [...offered];
  return selection.policy ? selection.policy.select(served) : served;
}

function listingOf(prompt: ServedPrompt): Prompt {
  const { definition } = prompt;
  const listing: Prompt = {
    name: prompt.name,
    description: definition.description,
    arguments: definition.inputs.map((input) => ({
      name: input.name,
      description: describeInput(input),
      required: input.required,
    })),
  };
  if (definition.title) listing.title = definition.title;
  return listing;
}

function describeInput(input: PromptInput): string {
  return input.values ? `${input.description} (one of: ${input.values.join(', ')})` : input.description;
}

function checkArguments(prompt: ServedPrompt, given: Record<string, string>): void {
  const missing = prompt.definition.inputs.filter((input) => input.required && (given[input.name] ?? '') === '');
  if (missing.length > 0) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `prompt ${prompt.name} needs the argument${missing.length > 1 ? 's' : ''} ${missing.map((input) => `'${input.name}'`).join(', ')}`,
    );
  }
  for (const input of prompt.definition.inputs) {
    const value = given[input.name];
    if (value !== undefined && value !== '' && input.values && !input.values.includes(value)) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `prompt ${prompt.name}: argument '${input.name}' must be one of ${input.values.join(', ')}, got '${value.slice(0, 100)}'`,
      );
    }
  }
}

function render(prompt: ServedPrompt, given: Record<string, string>, served: readonly Tool[]): GetPromptResult {
  let filled = 0;
  const fill = (text: string) =>
    fillPlaceholders(text, ({ kind, value }) => {
      if (kind === 'tool') return toolName(value, served);
      const argument = given[value] || NOT_GIVEN;
      filled += argument.length;
      if (filled > MAX_FILLED_CHARS)
        throw new McpError(
          ErrorCode.InvalidParams,
          `prompt ${prompt.name}: its arguments fill in more than ${MAX_FILLED_CHARS} characters (each use counts); give shorter ones`,
        );
      return argument;
    });
  const messages: PromptMessage[] = [
    { role: 'user', content: { type: 'text', text: fill(prompt.definition.content) } },
  ];
  for (const attachment of prompt.definition.attachments ?? [])
    messages.push({ role: 'user', content: attachmentContent(attachment, fill) });
  return { description: prompt.definition.description, messages };
}

/** The name the client calls the tool by, or the reference with a note that it cannot. */
function toolName(reference: string, served: readonly Tool[]): string {
  const names = toolsNamed(reference, served).map((tool) => tool.name);
  if (names.length === 0) return `${reference} (a tool this server does not offer)`;
  return names.join(' or ');
}

function attachmentContent(attachment: PromptAttachment, fill: (text: string) => string): PromptMessage['content'] {
  if (attachment.type === 'image') return { type: 'image', data: attachment.data, mimeType: attachment.mimeType };
  return {
    type: 'resource',
    resource: { uri: fill(attachment.uri), mimeType: attachment.mimeType, text: fill(attachment.text) },
  };
}
