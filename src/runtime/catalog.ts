// A folder of schemas loaded into a catalog of tools. Every file is scanned and validated
// against the shared lists and every route of a valid one becomes a tool; handlers factories run
// in the sandbox on their first use (handler-units.ts). Every problem becomes a finding of its
// file; a file that fails never stops the others. Checking the files and taking in the sound ones is schema-intake.ts.

import type { Finding } from '../report/findings.js';
import { HttpClient } from '../http/client.js';
import type { Reach } from '../http/reach.js';
import type { Redactor } from '../http/redact.js';
import { SecretStore, type KeyAccess } from '../http/secrets.js';
import { Upstreams } from '../http/upstreams.js';
import type { SharedList } from '../lists/types.js';
import type { FileReport } from '../report/format.js';
import type { OutputValidation } from '../shared/output-validation.js';
import type { Outcome } from '../sandbox/host.js';
import type { Hook } from '../sandbox/protocol.js';
import { withBoundedYoungGeneration } from '../shared/young-generation.js';
import { HandlerUnits, type SandboxState } from '../catalog/handler-units.js';
import {
  CallListeners,
  elapsedMs,
  makeCallRecord,
  startCall,
  type CallCaller,
  type CallListener,
} from '../call/record.js';
import { callContext } from './call-context.js';
import type { CatalogOptions, ListsFolder } from './catalog-options.js';
import { checkSchemaFiles, SLICE_MS, type CatalogSchema, type SchemaReport } from './schema-intake.js';
import { callTool, checkArguments, CheckedArguments, type CallContext } from '../call/pipeline.js';
import type { CallFailure, CallOptions, CallResult, DryRunResult, ToolError } from '../call/outcome.js';
import { ResponseCache, type CacheOutcome } from '../cache/response-cache.js';
import { MemoryState } from '../state/memory-state.js';
import type { SharedState } from '../state/shared-state.js';
import { selectSchemaFiles } from '../scan/files.js';
import { compileTools, unitId, type Tool } from '../catalog/tools.js';
import type { CheckCache } from '../project/check-cache.js';
import { ProjectChecker } from '../project/checker.js';
import { servePrompts, unresolvedTools, type ServedPrompt } from '../prompts/served.js';
import { openKeyLock, type KeyLockReport } from '../keylock/key-lock.js';

export type { SandboxState } from '../catalog/handler-units.js';

/**
 * When the check cache is written after a load: writing it is the last tenth of a cold start,
 * and by then a server has answered its client's first requests. close() writes it if still due.
 */
const CACHE_SAVE_DELAY_MS = 1000;

/**
 * Each catalog's handler units, kept off the public Catalog: runSchemaHook reads them. A WeakMap,
 * so a catalog that is dropped takes its entry with it.
 */
const handlerUnits = new WeakMap<Catalog, HandlerUnits>();

export class Catalog {
  private readonly byName: ReadonlyMap<string, Tool>;
  /** Files whose handlers factory failed on first use: their tools are withdrawn, their reports gain its findings. */
  private readonly withdrawn = new Set<string>();
  private readonly toolListeners = new Set<() => void>();
  private closing: Promise<void> | undefined;
  private readonly callListeners = new CallListeners();
  /** Each schema file's hash, by path, for call records. */
  private readonly schemaHashes: ReadonlyMap<string, string>;

  private constructor(
    readonly schemas: CatalogSchema[],
    readonly tools: Tool[],
    /** Findings per schema file as the load found them, in path order; never changed after it. */
    private readonly loadReports: readonly SchemaReport[],
    /** Findings per shared-list file read (those the schemas reach), in path order. */
    readonly listReports: FileReport[],
    readonly listsFolder: ListsFolder,
    private readonly units: HandlerUnits,
    private readonly context: CallContext,
    private readonly cache: CheckCache | undefined,
    private readonly responses: ResponseCache,
    /** The state the catalog made itself, and closes; null when the caller gave one. */
    private readonly ownState: SharedState | null,
    /** The project folder the catalog was loaded for (libraries resolve from it first). */
    readonly project: string,
    /** The shared lists loaded, by name (groups record the files their schemas reach). */
    readonly lists: ReadonlyMap<string, SharedList>,
    /** The skills and prompts of the schema folder, served as MCP prompts (src/prompts/served.ts). */
    readonly prompts: readonly ServedPrompt[] = [],
    /** `output.validate` of the config: what a server does with an answer that departs from its tool's output schema. */
    readonly outputValidation: OutputValidation = 'error',
    /** What the key lock held back and recorded at this load; null when it is off. */
    readonly keyLock: KeyLockReport | null = null,
  ) {
    this.byName = new Map(tools.flatMap((tool) => [[tool.name, tool] as const, [tool.reference, tool] as const]));
    this.schemaHashes = new Map(schemas.map((entry) => [entry.file, entry.sha256]));
    handlerUnits.set(this, units);
    if (cache) setTimeout(() => cache.save(), CACHE_SAVE_DELAY_MS).unref();
  }

  static async load(options: CatalogOptions): Promise<Catalog> {
    // The project as `validate` checks it: its config (a bad one stops the load here) and lists.
    const checker = ProjectChecker.open(options);
    const { config, dir: project } = checker;
    // Operator input that can be wrong is read before anything is started.
    const upstreams = new Upstreams({ ...config.upstreams, ...options.upstreams });
    // Non-public addresses only where the operator allows them: the config, and the requests an override routes.
    const http = new HttpClient(
      { ...config.http, ...options.http },
      { allowPrivate: config.network.allowPrivate, upstreams },
    );
    const { deadlineMs, memoryMb, workers } = config.sandbox;
    let catalog: Catalog | undefined;
    // Factories that fail after the load withdraw their tools; those run during it are the load's to report.
    const units = new HandlerUnits({ deadlineMs, memoryMb, size: workers, ...options.sandbox }, project, (file) =>
      catalog?.withdraw(file),
    );
    try {
      catalog = await withBoundedYoungGeneration((checkpoint) =>
        Catalog.assemble(options, checker, units, { http, upstreams }, checkpoint),
      );
      return catalog;
    } catch (error) {
      await Promise.all([units.close(), http.close()]);
      throw error;
    }
  }

  private static async assemble(
    options: CatalogOptions,
    checker: ProjectChecker,
    units: HandlerUnits,
    { http, upstreams }: { http: HttpClient; upstreams: Upstreams },
    /** Called after each file is checked (young-generation.ts). */
    checkpoint: () => void,
  ): Promise<Catalog> {
    const { config, dir: project } = checker;
    // As `validate` does: list files below the schema folder are lists, never schemas.
    const files = selectSchemaFiles([options.schemas]).files.filter((file) => !checker.isListFile(file));
    // The checks the catalog replaced made are on disk before the cache is read: a reload rechecks only changed files.
    options.previous?.cache?.save();
    const cache = options.cache ? checker.openCache() : undefined;
    const { reports, schemas, promptSources } = await checkSchemaFiles(
      files,
      options,
      checker,
      cache,
      units,
      checkpoint,
    );

    const secrets = SecretStore.fromProject(project, {
      env: options.env ?? process.env,
      given: options.keys,
      grants: config.keys,
    });
    const tools = compileTools(
      schemas.map(({ schema }) => schema),
      options.schemas,
      secrets,
      units,
      config.network,
    );
    // A key goes only to the files the key lock records for it: the tools of any other are hidden.
    const keyLock = openKeyLock(
      { setting: options.keyLock, project, schemas: options.schemas, lists: options.lists },
      tools,
      (key, namespace) => secrets.valueFor(key, namespace) !== undefined,
    );
    for (const finding of keyLock?.findings() ?? [])
      reports.find((report) => report.file === finding.file)?.findings.push(finding);
    for (const tool of tools) Object.freeze(tool); // decided: handler units report to the catalog, never into a tool
    const prompts = servePrompts(
      promptSources,
      schemas.map(({ schema }) => schema),
    );
    for (const finding of unresolvedTools(prompts, tools))
      reports.find((report) => report.file === finding.file)?.findings.push(finding);
    const redactor: Redactor = secrets.redactorFor(schemas.flatMap(({ schema }) => schema.requiredServerParams));
    const state = options.state ?? new MemoryState({ maxCacheEntries: config.cache.maxEntries });
    const context = callContext({ config, http, secrets, redactor, upstreams, units, tools, state });
    const listsFolder = { path: checker.listsFolder, files: checker.lists.folderFiles };
    const responses = new ResponseCache({
      store: state,
      config: config.cache,
      maxDepth: http.limits.maxJsonDepth,
      keyValue: (key, namespace) => secrets.valueFor(key, namespace),
    });
    const ownState = options.state ? null : state;
    return new Catalog(
      schemas,
      tools,
      reports,
      checker.listReports(),
      listsFolder,
      units,
      context,
      cache,
      responses,
      ownState,
      project,
      checker.lists.lists,
      prompts,
      config.output.validate,
      keyLock,
    );
  }

  /** Calls `listener` whenever the tools served change (a schema's handlers failed on first use). */
  onToolsChanged(listener: () => void): () => void {
    this.toolListeners.add(listener);
    return () => this.toolListeners.delete(listener);
  }

  private withdraw(file: string): void {
    this.withdrawn.add(file);
    for (const listener of this.toolListeners) listener();
  }

  /** Findings per schema file, in path order: the load's, and those of a handlers factory that failed since (handler-units.ts). */
  get schemaReports(): SchemaReport[] {
    return this.loadReports.map((report) =>
      this.withdrawn.has(report.file)
        ? { ...report, findings: [...report.findings, ...this.units.failureOf(report.file)] }
        : report,
    );
  }

  /**
   * Compiles every tool's argument validator in the background, a few at a time, so that no
   * first call waits for Ajv. A server calls this once it is up; it never keeps the process alive.
   */
  warmUp(): void {
    const queue = this.visibleTools();
    const step = () => {
      const until = performance.now() + SLICE_MS;
      while (queue.length > 0 && performance.now() < until) {
        try {
          queue.shift()?.input.warmUp();
        } catch {
          // Runs from a timer, so it must not throw: a validator that cannot be made fails its own tool's call.
        }
      }
      if (queue.length > 0) setTimeout(step, 0).unref();
    };
    setTimeout(step, 0).unref();
  }

  /** A tool by its MCP name or its full reference `namespace/file.mjs::route`. */
  tool(nameOrReference: string): Tool | undefined {
    return this.byName.get(nameOrReference);
  }

  /** Tools whose keys are all present and whose handlers did not fail to load; the others are hidden. */
  visibleTools(): Tool[] {
    return this.tools.filter((tool) => tool.missingKeys.length === 0 && !this.withdrawn.has(tool.schema.file));
  }

  /** A call; with `dryRun: true`, the request it would send instead (each its own result type, so a server never meets a dry run). */
  call(nameOrReference: string, args: unknown, options: CallOptions & { dryRun: true }): Promise<DryRunResult>;
  call(nameOrReference: string, args: unknown, options?: CallOptions & { dryRun?: false }): Promise<CallResult>;
  call(nameOrReference: string, args: unknown, options?: CallOptions): Promise<CallResult | DryRunResult>;
  async call(nameOrReference: string, args: unknown, options: CallOptions = {}): Promise<CallResult | DryRunResult> {
    // A record is made only while someone listens (taken at the start: a listener added meanwhile waits for the next call).
    const start = this.callListeners.active ? startCall() : null;
    const tool = this.tool(nameOrReference);
    const { result, cache } = tool
      ? await this.callThroughCache(tool, args, options)
      : { result: unknownTool(nameOrReference), cache: 'none' as const };
    if (start) {
      const durationMs = elapsedMs(start);
      const called = tool
        ? { name: tool.name, reference: tool.reference, schemaHash: this.schemaHashes.get(tool.schema.file) ?? '' }
        : { name: nameOrReference, reference: '', schemaHash: '' };
      this.callListeners.publish(() =>
        makeCallRecord(start, durationMs, called, args, result, this.context.redactor, cache, options.caller),
      );
    }
    return result;
  }

  /** ServedCatalog's: one record (bounded in call/record.ts) of an unknown tool or a refused call; nothing is called. */
  recordCallNotMade(name: string, args: unknown, caller?: CallCaller, refusal?: ToolError): void {
    if (!this.callListeners.active) return;
    const start = startCall();
    const result: CallResult = refusal ? { ok: false, error: refusal } : unknownTool(name);
    this.callListeners.publish(() =>
      makeCallRecord(
        start,
        0,
        { name, reference: '', schemaHash: '' },
        args,
        result,
        this.context.redactor,
        'none',
        caller,
      ),
    );
  }

  /**
   * The response cache (src/cache/) answers a repeated call of a read-only tool; it keys on the
   * checked arguments. Not async: its promise is the cache's, not one more wrapped around it.
   */
  private callThroughCache(
    tool: Tool,
    args: unknown,
    options: CallOptions,
  ):
    | Promise<{ result: CallResult | DryRunResult; cache: CacheOutcome }>
    | { result: CallResult | DryRunResult; cache: CacheOutcome } {
    const checked = checkArguments(this.context, tool, args, options);
    if (!(checked instanceof CheckedArguments))
      return { result: this.context.redactor.redactValue(checked), cache: 'none' };
    return this.responses.through(tool, checked.values, options, () => callTool(this.context, tool, checked, options));
  }

  /**
   * Calls `listener` with the record of every call that finishes from now on (call/record.ts),
   * in batches a few milliseconds after the callers got their results (close() delivers what
   * waits); a listener that throws fails nothing. Returns the unsubscribe.
   */
  onCall(listener: CallListener): () => void {
    return this.callListeners.add(listener);
  }

  /** Hands the records of the calls that have ended to the listeners now, not in their next batch: a metrics scrape counts every call answered. */
  deliverCallRecords(): void {
    this.callListeners.deliverNow();
  }

  /** Where a schema's executeRequest handlers may send requests (R12); null for a file with no tool. */
  reach(file: string): ReturnType<Reach['describe']> | null {
    return this.tools.find((tool) => tool.schema.file === file)?.reach.describe() ?? null;
  }

  /**
   * Whether `namespace` may use `key`, and if not, the line that would grant it; with the schema
   * `file`, also whether the key lock holds the key back from that file (and the command that accepts it).
   */
  keyAccess(key: string, namespace: string, file?: string): KeyAccess {
    if (file !== undefined && this.keyLock?.heldKeys(file).includes(key))
      return { granted: false, reason: 'held', fix: this.keyLock.acceptCommand([key]) };
    return this.context.secrets.access(key, namespace);
  }

  /** A schema's hooks per route once its handlers factory has run (at load, or on first use); undefined before, without handlers, or when it failed. */
  hooksOf(file: string): Readonly<Record<string, Hook[]>> | undefined {
    return this.units.loadedHooks(file);
  }

  /** Whether the sandbox can run handlers now, as a readiness probe asks; asking never starts it. */
  sandboxState(): SandboxState {
    return this.units.sandboxState();
  }

  /** Redacts key values from any text leaving the core (logs, messages). */
  redact(text: string): string {
    return this.context.redactor.redact(text);
  }

  /** Findings per file: the schema files, then the shared-list files that were read. */
  get reports(): FileReport[] {
    return [...this.schemaReports, ...this.listReports];
  }

  findings(): Finding[] {
    return this.reports.flatMap((report) => report.findings);
  }

  /** Closes the sandbox, the HTTP client and the catalog's own state; a second call waits for the first. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.callListeners.deliverNow();
      this.cache?.save();
      await Promise.all([this.units.close(), this.context.http.close(), this.ownState?.close()]);
    })();
    return this.closing;
  }
}

/**
 * Runs one handler hook of a schema in its sandbox unit (its factory first, if it has not run),
 * without the call pipeline around it: for tests and diagnostics, not part of the public API (index.ts).
 */
export function runSchemaHook(
  catalog: Catalog,
  file: string,
  route: string,
  hook: Hook,
  input: unknown,
): Promise<Outcome<unknown>> {
  return (handlerUnits.get(catalog) as HandlerUnits).runHook(unitId(file), route, hook, input);
}

function unknownTool(name: string): CallFailure {
  return { ok: false, error: { kind: 'unknown-tool', message: `no tool named '${name.slice(0, 100)}'` } };
}
