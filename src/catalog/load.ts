// Loads a folder of schemas into a catalog: every file is scanned and validated, the handlers
// factories of the valid ones run in the sandbox, and every problem becomes a finding of its
// file. A file that fails never stops the others.

import { FindingSink, type Finding } from '../findings.js';
import { loadProjectConfig } from '../config/project.js';
import { effectiveAllowlist } from '../libraries/allowlist.js';
import { resolveLibrary } from '../libraries/resolve.js';
import { Sandbox, type Outcome, type SandboxOptions } from '../sandbox/pool.js';
import { runPostRequest, runPreRequest, type PreRequestResult, type RequestStruct } from './hooks.js';
import type { Hook, LibraryModule } from '../sandbox/protocol.js';
import type { CanonicalSchema } from '../schema/types.js';
import { selectSchemaFiles } from './files.js';
import { checkSchemaFile } from './validate.js';
import type { FileReport } from '../report/format.js';

export interface CatalogOptions {
  /** Folder of schema files (searched recursively). */
  schemas: string;
  /** Folder holding `.flowmcp/config.json`; default the working directory. */
  project?: string;
  sandbox?: Pick<SandboxOptions, 'size' | 'deadlineMs' | 'memoryMb'>;
}

export interface CatalogSchema {
  file: string;
  schema: CanonicalSchema;
  /** Hooks per route, as the handlers factory returned them; empty without handlers. */
  hooks: Record<string, Hook[]>;
}

export class Catalog {
  private constructor(
    readonly schemas: CatalogSchema[],
    readonly reports: FileReport[],
    private readonly sandbox: Sandbox | null,
  ) {}

  static async load(options: CatalogOptions): Promise<Catalog> {
    const project = options.project ?? '.';
    const config = loadProjectConfig(project);
    // Workers start (about 0.1 s each) while the files are checked; closed again if no schema has handlers.
    const { deadlineMs, memoryMb, workers } = config.sandbox;
    let sandbox: Sandbox | null = new Sandbox({ deadlineMs, memoryMb, size: workers, ...options.sandbox });
    const { files } = selectSchemaFiles([options.schemas]);
    const checks = files.map((file) => checkSchemaFile(file, { allowedLibraries: effectiveAllowlist(config.allowedLibraries) }));
    const reports: FileReport[] = checks.map(({ file, findings }) => ({ file, findings: [...findings] }));
    const valid = checks.flatMap((check, index) => (check.schema ? [{ schema: check.schema, report: reports[index] as FileReport }] : []));

    const withHandlers = valid.filter(({ schema }) => schema.handlers !== null);
    const libraries = resolveLibraries(withHandlers.map(({ schema }) => schema), project);

    if (withHandlers.length === 0) {
      await sandbox.close();
      sandbox = null;
    }
    const loaded = await Promise.all(
      valid.map(async ({ schema, report }) => {
        const sink = new FindingSink(schema.file);
        const hooks = sandbox && schema.handlers ? await loadHandlers(sandbox, schema, libraries, sink) : {};
        report.findings.push(...sink.findings);
        return sink.hasErrors() ? null : { file: schema.file, schema, hooks };
      }),
    );
    return new Catalog(loaded.filter((entry): entry is CatalogSchema => entry !== null), reports, sandbox);
  }

  /** Runs one handler hook of a schema in its sandbox unit, as it is (tests and diagnostics). */
  runHook(file: string, route: string, hook: Hook, input: unknown): Promise<Outcome<unknown>> {
    return this.sandbox ? this.sandbox.call(unitId(file), route, hook, input) : Promise.resolve(NO_SANDBOX);
  }

  /** A route's preRequest under the handler contract: url, headers and body may change, the method not. */
  preRequest(file: string, route: string, struct: RequestStruct, payload: Record<string, unknown>): Promise<Outcome<PreRequestResult>> {
    return this.sandbox ? runPreRequest(this.sandbox, unitId(file), route, struct, payload) : Promise.resolve(NO_SANDBOX);
  }

  /** A route's postRequest under the handler contract: it hands back the response. */
  postRequest(file: string, route: string, input: { response: unknown; struct: RequestStruct; payload: Record<string, unknown> }): Promise<Outcome<unknown>> {
    return this.sandbox ? runPostRequest(this.sandbox, unitId(file), route, input) : Promise.resolve(NO_SANDBOX);
  }

  findings(): Finding[] {
    return this.reports.flatMap((report) => report.findings);
  }

  async close(): Promise<void> {
    await this.sandbox?.close();
  }
}

const NO_SANDBOX = { ok: false, failure: { code: 'SEC101', message: 'no schema with handlers is loaded' } } as const;

function unitId(file: string): string {
  return file;
}

interface Libraries {
  found: Map<string, LibraryModule>;
  missing: Set<string>;
}

/** Every library a handler schema needs, resolved once for the whole catalog. */
function resolveLibraries(schemas: CanonicalSchema[], project: string): Libraries {
  const found = new Map<string, LibraryModule>();
  const missing = new Set<string>();
  for (const name of new Set(schemas.flatMap((schema) => schema.requiredLibraries))) {
    const library = resolveLibrary(name, project);
    if (library) found.set(name, library);
    else missing.add(name);
  }
  return { found, missing };
}

async function loadHandlers(sandbox: Sandbox, schema: CanonicalSchema, libraries: Libraries, sink: FindingSink): Promise<Record<string, Hook[]>> {
  const absent = schema.requiredLibraries.filter((name) => libraries.missing.has(name));
  if (absent.length > 0) {
    sink.addAt('SEC103', undefined, `required librar${absent.length === 1 ? 'y' : 'ies'} ${absent.join(', ')} not installed`, 'install it in the project (npm install <name>)', 'main.requiredLibraries');
    return {};
  }
  const outcome = await sandbox.load({
    id: unitId(schema.file),
    source: schema.handlers?.factorySource ?? '',
    routes: schema.routes.map((route) => route.name),
    libraries: schema.requiredLibraries.flatMap((name) => libraries.found.get(name) ?? []),
    sharedLists: {},
  });
  if (!outcome.ok) {
    sink.addAt(outcome.failure.code, undefined, outcome.failure.message, undefined, 'handlers');
    return {};
  }
  // Where the factory returns an object literal, the static check has named these already.
  if (schema.handlers?.routes !== null) return outcome.value.hooks;
  for (const route of outcome.value.unknownRoutes) {
    sink.addAt('VAL005', undefined, `the handlers factory returned handlers for '${route}', which is no route of this schema`, undefined, `handlers.${route}`);
  }
  return outcome.value.hooks;
}
