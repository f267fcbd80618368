// A catalog's handlers in the sandbox, one unit per schema file. A unit's handlers factory runs
// once, the first time one of its tools needs a handler, and the sandbox starts with the first
// unit: a catalog is callable as soon as its files are checked, and a server whose handler tools
// are never called never pays for the sandbox (a third of a cold load's time, and a whole
// process). `at-load` runs every factory while the catalog loads instead, as a diagnosis does.

import { FindingSink, isError, type Finding } from '../report/findings.js';
import { builtinRefusal, installCommand, resolveLibrary, type LibraryModule } from '../libraries/resolve.js';
import { escapeHtmlComments } from '../scan/html-comments.js';
import { SandboxHost, type Bridge, type Outcome, type SandboxOptions } from '../sandbox/host.js';
import type { Failure, Hook, SandboxCode } from '../sandbox/protocol.js';
import type { CanonicalSchema, HandlersInfo } from '../schema/types.js';

/** A unit's factory ran: its hooks per route; or it failed: the findings that withdraw its tools. */
export type UnitLoad = { ok: true; hooks: Record<string, Hook[]> } | { ok: false; findings: Finding[] };

/** Tells the runtime that a unit's factory failed after the load: the tools served change. */
export type UnitFailed = (file: string) => void;

/**
 * `unused`: no schema has handlers; `not-started`: none has been needed yet (the sandbox starts
 * with the first call that needs one); `ready`: every worker process takes requests;
 * `starting`: one is starting, or starting again after a crash or a kill.
 */
export type SandboxState = 'unused' | 'not-started' | 'ready' | 'starting';

interface Unit {
  schema: CanonicalSchema;
  handlers: HandlersInfo;
  /** Every route the file declares: handlers of a route dropped for its own error are no stray handlers (VAL005). */
  declared: readonly string[];
  load: Promise<UnitLoad> | null;
  /** What its factory's run gave, once it has run: the hooks, or the findings that withdraw its tools. */
  outcome: UnitLoad | null;
}

const SANDBOX_CODES: ReadonlySet<SandboxCode> = new Set([
  'SEC100',
  'SEC101',
  'SEC102',
  'SEC103',
  'SEC104',
  'SEC105',
  'SEC106',
  'SEC107',
]);
const NO_UNIT: Failure = { code: 'SEC107', message: 'no schema with handlers is loaded' };

export class HandlerUnits {
  private host: SandboxHost | null = null;
  private readonly units = new Map<string, Unit>();
  private readonly libraries: LibraryResolver;

  constructor(
    private readonly sandboxOptions: SandboxOptions,
    private readonly project: string,
    private readonly failed: UnitFailed,
  ) {
    this.libraries = new LibraryResolver(project);
  }

  /**
   * Takes a checked schema's handlers. Libraries are looked up on the host now, so a file that
   * names one that is not installed is rejected at load (SEC103), whenever its factory would run.
   */
  add(schema: CanonicalSchema, declared: readonly string[], sink: FindingSink): void {
    if (!schema.handlers) return;
    const refused = schema.requiredLibraries.flatMap((name) => builtinRefusal(name) ?? []);
    if (refused.length > 0) {
      sink.addAt(
        'SEC103',
        undefined,
        refused.join('; '),
        'compute in the handler, or ask the core through fetch in an executeRequest handler',
        'main.requiredLibraries',
      );
      return;
    }
    const absent = schema.requiredLibraries.filter((name) => this.libraries.get(name) === null);
    if (absent.length > 0) {
      sink.addAt(
        'SEC103',
        undefined,
        `required librar${absent.length === 1 ? 'y' : 'ies'} ${absent.join(', ')} not installed`,
        `install ${absent.length === 1 ? 'it' : 'them'} into the project: ${installCommand(absent, this.project)}`,
        'main.requiredLibraries',
      );
      return;
    }
    this.units.set(schema.file, { schema, handlers: schema.handlers, declared, load: null, outcome: null });
  }

  /** Runs the unit's factory unless it has run; every caller gets the same answer. */
  load(file: string): Promise<UnitLoad> {
    const unit = this.units.get(file);
    if (!unit) return Promise.resolve({ ok: false, findings: [] });
    return (unit.load ??= this.runFactory(unit));
  }

  /** A route's hooks, running its unit's factory unless it has run; why not, when it fails. */
  async hooksOf(file: string, route: string): Promise<Outcome<Hook[]>> {
    const loaded = await this.load(file);
    return loaded.ok
      ? { ok: true, value: loaded.hooks[route] ?? [] }
      : { ok: false, failure: loaded.findings.length > 0 ? unitFailure(loaded.findings) : NO_UNIT };
  }

  /** Runs one hook of a route, loading its unit first when this is the unit's first use. */
  async runHook(file: string, route: string, hook: Hook, input: unknown, bridge?: Bridge): Promise<Outcome<unknown>> {
    const loaded = await this.load(file);
    if (!loaded.ok || !this.host) return { ok: false, failure: loaded.ok ? NO_UNIT : unitFailure(loaded.findings) };
    return this.host.runHook(file, route, hook, input, bridge);
  }

  /** A unit's hooks per route once its factory has run; undefined before, or when it failed. */
  loadedHooks(file: string): Readonly<Record<string, Hook[]>> | undefined {
    const outcome = this.units.get(file)?.outcome;
    return outcome?.ok ? outcome.hooks : undefined;
  }

  /** The findings of a unit whose factory failed: its tools are withdrawn. Empty while it has not failed. */
  failureOf(file: string): readonly Finding[] {
    const outcome = this.units.get(file)?.outcome;
    return outcome && !outcome.ok ? outcome.findings : [];
  }

  /** The process ids of the sandbox's workers; none before the first factory runs. */
  pids(): Array<number | undefined> {
    return this.host?.pids() ?? [];
  }

  /** The sandbox as a readiness probe sees it (SandboxState); asking never starts it. */
  sandboxState(): SandboxState {
    if (this.units.size === 0) return 'unused';
    if (!this.host) return 'not-started';
    return this.host.ready() ? 'ready' : 'starting';
  }

  async close(): Promise<void> {
    await this.host?.close();
  }

  private async runFactory(unit: Unit): Promise<UnitLoad> {
    const { schema, handlers } = unit;
    this.host ??= new SandboxHost(this.sandboxOptions);
    const sink = new FindingSink(schema.file);
    const outcome = await this.host.load({
      id: schema.file,
      // SES refuses `<!--` and `-->` even in strings; the same text, escaped, evaluates.
      source: escapeHtmlComments(handlers.factorySource),
      routes: [...unit.declared],
      libraries: schema.requiredLibraries.flatMap((name) => this.libraries.get(name) ?? []),
      sharedLists: schema.resolvedLists,
    });
    if (!outcome.ok) {
      sink.addAt(outcome.failure.code, undefined, outcome.failure.message, undefined, 'handlers');
    } else if (handlers.routes === null) {
      // Where the factory returns an object literal, the static check has named these already.
      for (const route of outcome.value.unknownRoutes) {
        sink.addAt(
          'VAL005',
          undefined,
          `the handlers factory returned handlers for '${route}', which is no route of this schema`,
          undefined,
          `handlers.${route}`,
        );
      }
    }
    unit.outcome =
      !outcome.ok || sink.hasErrors()
        ? { ok: false, findings: sink.findings }
        : { ok: true, hooks: outcome.value.hooks };
    if (!unit.outcome.ok) this.failed(schema.file);
    return unit.outcome;
  }
}

/** What a call of a withdrawn tool answers: its unit's first error, under its own code where the sandbox gave it. */
function unitFailure(findings: readonly Finding[]): Failure {
  const first = findings.find(isError) ?? findings[0];
  if (!first) return NO_UNIT;
  const code = (SANDBOX_CODES as ReadonlySet<string>).has(first.code) ? (first.code as SandboxCode) : 'SEC107';
  return {
    code,
    message: `the schema's handlers could not be loaded: ${first.code === code ? '' : `${first.code} `}${first.message}`,
  };
}

/**
 * The hooks of a route as the static check read them from the factory's returned object
 * literal, without running it; null where only running the factory can tell.
 */
export function staticHooks(handlers: HandlersInfo | null, route: string): Hook[] | null {
  if (!handlers) return [];
  if (handlers.routes === null) return null;
  const read = handlers.routes[route];
  if (read === null) return null;
  return read ? (['preRequest', 'executeRequest', 'postRequest'] as const).filter((hook) => read[hook]) : [];
}

/** Each library a handler schema needs, looked up on disk once for the whole catalog. */
class LibraryResolver {
  private readonly known = new Map<string, LibraryModule | null>();

  constructor(private readonly project: string) {}

  get(name: string): LibraryModule | null {
    if (!this.known.has(name)) this.known.set(name, resolveLibrary(name, this.project));
    return this.known.get(name) ?? null;
  }
}
