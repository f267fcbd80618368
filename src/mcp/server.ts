// The MCP layer: catalog tools as protocol messages, nothing else (it knows no HTTP upstreams).
// Built on the SDK's low-level `Server`, so every tool's input schema goes out exactly as the
// catalog compiled it: plain JSON Schema 2020-12, no `$schema`, no draft-07 rewrite.
//
// - `tools/list`: every visible tool (a tool whose keys are missing is hidden), with its R8 name,
//   its reference `namespace/file.mjs::route` as `title` and in `_meta`, its description, input
//   schema, annotations from the HTTP method (or the 4.x tool `meta`, whose other hints go into
//   `_meta`), and an `outputSchema` where the route's output converts to one (schema/tool-output.ts)
//   and `output.validate` is `error` (content.ts says why).
//   Built once per catalog and shared by every server; each definition is made by tool-definition.ts.
// - `tools/call`: an unknown tool or malformed params are protocol errors (InvalidParams);
//   everything that goes wrong in the call itself is an `isError` result (content.ts). The
//   request's abort signal goes to the catalog, so `notifications/cancelled` (or a closed
//   connection) aborts the upstream request.
// - Progress: with a progress token, a call still running after `firstMs` reports
//   `notifications/progress` (1, 2, 3, … with the time waited), then every `everyMs`. Nothing is
//   reported right before the result: the SDK client handles notifications a microtask later
//   than responses, so a notification that reaches it in the same read as the response finds
//   its token retired and is reported as a protocol error (typescript-sdk issue #2580; some
//   clients drop the connection over it). After a notification the result waits `gapMs`.

import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolRequest,
  type CallToolResult,
  type ListToolsResult,
  type ServerNotification,
  type Tool as McpTool,
} from '@modelcontextprotocol/sdk/types.js';
import { LiveCatalog } from './live-catalog.js';
import { listingOf } from './tool-definition.js';
import type { ServedCatalog as Catalog } from './served-catalog.js';
import type { Tool } from '../catalog/tools.js';
import type { Logger } from '../observe/logger.js';
import type { ServerMetrics } from '../observe/metrics.js';
import { flowguardVersion } from '../shared/version.js';
import { DEFAULT_MAX_RESULT_CHARS, errorResult, successResult } from './content.js';
import { OutputValidator, toOutputSchema } from '../schema/tool-output.js';
import { affordableDefinition } from '../schema/affordable.js';
import type { ServedPrompt } from '../prompts/served.js';
import { promptListing, registerPrompts } from './prompts.js';
import { searchCacheDir } from '../discovery/index-cache.js';
import { CursorError, pageOf } from '../discovery/pages.js';
import { discoveryListing, isMetaCall, answerMetaCall, toolIndexOf, type DiscoveryMode } from '../discovery/served.js';
import type { ToolIndex } from '../discovery/tool-index.js';
import { CALL_TOOL } from '../discovery/meta-tools.js';
import type { Caller } from '../access/caller.js';
import type { IdentityPolicy } from '../access/identities.js';
import { plural } from '../shared/plural.js';

export interface McpServerOptions {
  /** Largest text (or base64 data) item of a result, in characters; longer text is cut. */
  maxResultChars?: number;
  /** When progress notifications start, how often they follow, how long a result waits after one. */
  progress?: Partial<ProgressTiming>;
  /** Where internal failures are logged; default stderr. Lines are redacted first. */
  log?: (line: string) => void;
  /**
   * Serve only these tools of the catalog (a group) instead of all of them. Those with missing
   * keys stay hidden; every other tool is unknown to this server.
   */
  tools?: readonly Tool[];
  /** Counts the calls in flight and the answers that departed from their output schema (`/metrics`). */
  metrics?: Pick<ServerMetrics, 'callStarted' | 'outputMismatch'>;
  /** Where `output.validate: warn` reports an answer that departs from its output schema; without one, a line through `log`. */
  logger?: Pick<Logger, 'warn'>;
  /** Serve these prompts instead of the catalog's skills and prompts (a group's, prompts.ts). */
  prompts?: readonly ServedPrompt[];
  /** `search`: list the meta-tools and `alwaysLoad` tools only (src/discovery/); default `all`. */
  discovery?: DiscoveryMode;
  /** tools/list answers at most this many tools, with a `nextCursor` while more follow; default all in one. */
  pageSize?: number;
  /** Who this server answers (an HTTP caller, src/access/): named in the record of each of its calls. */
  caller?: Caller;
  /** What the caller's identity may list and call, and its own rate: narrows `tools` (or the catalog's) for listing, search and calls alike. */
  policy?: IdentityPolicy;
}

export interface ProgressTiming {
  firstMs: number;
  everyMs: number;
  gapMs: number;
}

const DEFAULT_PROGRESS: ProgressTiming = Object.freeze({ firstMs: 200, everyMs: 1000, gapMs: 50 });

interface ServedTool {
  tool: Tool;
  output?: OutputValidator;
}

/** What every server of one catalog shares: the tools/list answer and the output validators. */
interface ToolTable {
  /** Each definition as it fits a model's context (schema/affordable.ts). */
  listing: readonly McpTool[];
  /** Each definition whole, as `describe_tool` gives it. */
  full: readonly McpTool[];
  byName: ReadonlyMap<string, ServedTool>;
  /** Where the search index of these tools is cached (the project's). */
  indexCache: string;
}

type CallExtra = { signal: AbortSignal; sendNotification: (notification: ServerNotification) => Promise<void> };

// Without one given, every SDK Server builds its own Ajv instance with formats (about a
// millisecond, and one server is made per stateless HTTP request). It only serves elicitation,
// which this server never starts; one shared instance, made on first use, is enough.
let ajvValidator: AjvJsonSchemaValidator | undefined;
const sharedValidator: jsonSchemaValidator = {
  getValidator: (schema) => (ajvValidator ??= new AjvJsonSchemaValidator()).getValidator(schema),
};

/** Per catalog, or per tool selection (`options.tools`). */
const tables = new WeakMap<object, ToolTable>();

const TOOLS_CALL = CallToolRequestSchema.pick({ method: true }).passthrough();

const SERVER_NAME = 'flowguard';
const SERVER_VERSION = flowguardVersion();

/** `source`: a catalog, or a holder whose catalog is read afresh per request (`serve --watch` swaps it). */
export function createMcpServer(source: Catalog | LiveCatalog, options: McpServerOptions = {}): Server {
  const live = LiveCatalog.of(source);
  const maxChars = options.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const timing: ProgressTiming = { ...DEFAULT_PROGRESS, ...options.progress };
  const server = new Server(
    { name: SERVER_NAME, version: SERVER_VERSION },
    {
      capabilities: { tools: { listChanged: true }, prompts: { listChanged: true } },
      jsonSchemaValidator: sharedValidator,
    },
  );
  registerPrompts(server, live, { prompts: options.prompts, tools: options.tools, policy: options.policy });

  // `output.validate: warn`: the answer was served as text; the operator hears of it, and /metrics counts it.
  const reportMismatch = (catalog: Catalog, name: string, why: string) => {
    options.metrics?.outputMismatch(name);
    const problem = catalog.redact(why);
    if (options.logger)
      options.logger.warn({ tool: name, problem }, 'answer does not match the output schema; served as text');
    else log(`flowguard: warning: ${name}: the answer does not match the output schema (${problem}); served as text`);
  };

  // The tools this server serves: the selection given (a group) or the catalog's, narrowed to the identity's.
  const selectionOf = (catalog: Catalog) =>
    options.policy ? options.policy.select(options.tools ?? catalog.tools) : options.tools;
  const recordedCaller = options.caller && {
    identity: options.caller.identity,
    subject: options.caller.subject,
    client: options.caller.client,
  };

  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    const table = toolTable(live.current, selectionOf(live.current));
    const listing = (options.discovery === 'search' ? discoveryListing(table) : table.listing) as McpTool[];
    try {
      const page = pageOf(listing, request.params?.cursor, options.pageSize);
      return { ...page } satisfies ListToolsResult;
    } catch (error) {
      if (error instanceof CursorError) throw new McpError(ErrorCode.InvalidParams, error.message);
      throw error;
    }
  });

  /** The identity's own rate (`identities.<name>.rateLimit`): every tool call draws on it, the meta-tools' too. */
  const overRate = async () => {
    const wait = await options.policy?.limiter?.take();
    if (wait === undefined) return undefined;
    return {
      kind: 'rate-limited' as const,
      message: `the calls of identity ${options.policy?.name} are over its rate (identities.${options.policy?.name}.rateLimit)`,
      retryAfter: String(wait),
    };
  };

  /** A tool call, direct or through `call_tool`: one path, so both validate, limit, audit and count alike. */
  const callServed = (
    catalog: Catalog,
    name: string,
    args: Record<string, unknown>,
    extra: CallExtra,
    token: string | number | undefined,
  ) =>
    (async (): Promise<CallToolResult> => {
      const selection = selectionOf(catalog);
      const table = toolTable(catalog, selection);
      const served = table.byName.get(name);
      // A hidden tool (missing keys) is known: the catalog's answer says which key is missing.
      const hidden = served ? undefined : (selection ?? catalog.tools).find((tool) => tool.name === name);
      if (!served && !hidden) {
        // Probing for tool names is seen: one record (audit, and metrics under `(unknown)`).
        catalog.recordCallNotMade(name, args, recordedCaller);
        throw new McpError(
          ErrorCode.InvalidParams,
          `Unknown tool: ${name.slice(0, 100)}. tools/list names the ${plural(table.listing.length, 'tool')} of this server.`,
        );
      }

      const refusal = await overRate();
      if (refusal) {
        // Refused before it ran, and recorded all the same: the audit says who was held back.
        catalog.recordCallNotMade(name, args, recordedCaller, refusal);
        return errorResult(refusal);
      }
      const progress = token === undefined ? null : new ProgressReporter(token, timing, extra.sendNotification);
      const answered = options.metrics?.callStarted();
      try {
        const result = await catalog.call(name, args, { signal: extra.signal, caller: recordedCaller });
        await progress?.stop();
        if (!result.ok) return errorResult(result.error);
        const validation = catalog.outputValidation;
        return successResult(
          {
            name,
            output: served?.output,
            maxChars,
            validation,
            onMismatch: (why) => reportMismatch(catalog, name, why),
          },
          result.status,
          result.content,
        );
      } catch (error) {
        progress?.cancel();
        // Exceptions are bugs: logged (redacted) for the operator, a protocol error for the client.
        log(
          catalog.redact(
            `flowguard: internal error in tools/call ${name}: ${(error as Error)?.stack ?? String(error)}`,
          ),
        );
        throw new McpError(
          ErrorCode.InternalError,
          `flowguard failed internally while calling ${name}; the server log has the details`,
        );
      } finally {
        answered?.();
      }
    })();

  // Registered under a schema that only pins the method: the SDK's own tools/call wrapper then
  // checks the params against CallToolRequestSchema and answers InvalidParams. (Registered under
  // CallToolRequestSchema itself, malformed params fail an earlier parse and come back as
  // InternalError.)
  // A call runs on the catalog current when it arrives, to the end, even if a reload swaps it.
  server.setRequestHandler(TOOLS_CALL, (raw, extra) =>
    live.use(async (catalog): Promise<CallToolResult> => {
      const request = raw as unknown as CallToolRequest; // checked by the wrapper
      const { name } = request.params;
      const args = request.params.arguments ?? {};
      const token = request.params._meta?.progressToken;
      // In discovery mode the meta-tools take their names; `call_tool` comes back to callServed.
      if (options.discovery === 'search' && isMetaCall(name)) {
        // A search costs CPU as a call does; call_tool draws once, in callServed.
        if (name !== CALL_TOOL) {
          const refusal = await overRate();
          if (refusal) return errorResult(refusal);
        }
        return answerMetaCall(toolTable(catalog, selectionOf(catalog)), name, args, (target, targetArgs) =>
          callServed(catalog, target, targetArgs, extra, token),
        );
      }
      return callServed(catalog, name, args, extra, token);
    }),
  );
  return server;
}

/** Progress of one call while it waits; see the header for why it stops before the result. */
class ProgressReporter {
  private readonly started = Date.now();
  private count = 0;
  private lastSent = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly token: string | number,
    private readonly timing: ProgressTiming,
    private readonly send: (notification: ServerNotification) => Promise<void>,
  ) {
    this.timer = setTimeout(this.tick, timing.firstMs);
  }

  private readonly tick = () => {
    this.count += 1;
    this.lastSent = Date.now();
    const waited = ((this.lastSent - this.started) / 1000).toFixed(1);
    // Runs on a timer: a notification that cannot go (the transport closed) is dropped, never thrown.
    try {
      this.send({
        method: 'notifications/progress',
        params: {
          progressToken: this.token,
          progress: this.count,
          message: `waiting for the API to answer (${waited} s)`,
        },
      }).catch(() => undefined);
    } catch {
      // Dropped as above.
    }
    this.timer = setTimeout(this.tick, this.timing.everyMs);
  };

  cancel(): void {
    clearTimeout(this.timer);
  }

  /** Stops reporting; resolves once the last notification is `gapMs` old. */
  async stop(): Promise<void> {
    clearTimeout(this.timer);
    if (this.count === 0) return;
    const wait = this.lastSent + this.timing.gapMs - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/**
 * Tells the server's client to list the tools again whenever the tools served change (a schema's
 * handlers failed on their first use, or a reload swapped the catalog); returns what stops it,
 * for when the server closes.
 */
export function notifyToolChanges(source: Catalog | LiveCatalog, server: Server): () => void {
  const live = LiveCatalog.of(source);
  // A reload may change the prompts too; the client hears of it only when their listing did.
  let prompts = promptListing(live.current, {});
  return live.onToolsChanged(() => {
    void server.sendToolListChanged().catch(() => undefined);
    const next = promptListing(live.current, {});
    if (next !== prompts) void server.sendPromptListChanged().catch(() => undefined);
    prompts = next;
  });
}

/** Builds discovery's search index of these tools now rather than on the first search (`serve` calls it once it has started, and after each change). */
export function prepareDiscovery(catalog: Catalog, tools?: readonly Tool[]): ToolIndex {
  return toolIndexOf(toolTable(catalog, tools));
}

function toolTable(catalog: Catalog, selection: readonly Tool[] | undefined): ToolTable {
  const key = selection ?? catalog;
  let table = tables.get(key);
  if (!table) {
    const byName = new Map<string, ServedTool>();
    const full: McpTool[] = [];
    const served = new Set(catalog.visibleTools());
    const visible = selection ? selection.filter((tool) => served.has(tool)) : [...served];
    // Made again once the tools change.
    const stop = catalog.onToolsChanged(() => {
      tables.delete(key);
      stop();
    });
    for (const tool of visible) {
      const outputSchema = toOutputSchema(tool.route.output);
      byName.set(tool.name, outputSchema ? { tool, output: new OutputValidator(outputSchema) } : { tool });
      // Only under `error` is every answer checked to match: MCP requires that of an advertised outputSchema.
      full.push(listingOf(tool, catalog.outputValidation === 'error' ? outputSchema : undefined));
    }
    // A definition over the bound is listed cut; `validate` tells its author (VAL100).
    const listing = full.map((entry) => affordableDefinition(entry).definition);
    table = {
      listing: Object.freeze(listing),
      full: Object.freeze(full),
      byName,
      indexCache: searchCacheDir(catalog.project),
    };
    tables.set(key, table);
  }
  return table;
}
