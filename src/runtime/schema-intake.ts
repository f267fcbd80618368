// Taking checked schema files into a catalog: each file's check becomes its report as served,
// a file whose new text has errors keeps the version the previous catalog served (`serve --watch`),
// and a sound schema is taken in with its handlers (their factory run now where handlers load at load).

import { FindingSink, isError } from '../report/findings.js';
import type { FileReport } from '../report/format.js';
import { asServed } from '../report/scope.js';
import type { HandlerUnits } from '../catalog/handler-units.js';
import type { CheckCache } from '../project/check-cache.js';
import type { ProjectChecker } from '../project/checker.js';
import type { servePrompts } from '../prompts/served.js';
import type { CanonicalSchema } from '../schema/types.js';
import type { CatalogOptions } from './catalog-options.js';

export interface CatalogSchema {
  file: string;
  schema: CanonicalSchema;
  /** SHA-256 (hex) of the file's text this schema was checked from: call records name it. */
  sha256: string;
}

/** A schema file's report, with what its check learnt that the catalog's users need besides findings. */
export interface SchemaReport extends FileReport {
  /** The libraries `main.requiredLibraries` names, where the check read them: also of a file then rejected for one (SEC103). */
  requiredLibraries?: readonly string[];
  /** The file's current text has errors (its findings): the version the previous catalog served stays served. */
  lastGood?: true;
}

/** How long checking runs before it lets the sandbox catch up (handlers loaded at load), in milliseconds. */
export const SLICE_MS = 4;

/** What the schema files' checks gave: every file's report, the schemas taken in, and the prompts found. */
export interface SchemaIntake {
  reports: SchemaReport[];
  schemas: CatalogSchema[];
  promptSources: Array<Parameters<typeof servePrompts>[0][number]>;
}

/** Checks each schema file (or takes its check from `cache`) and takes in the sound schemas. */
export async function checkSchemaFiles(
  files: readonly string[],
  options: CatalogOptions,
  checker: ProjectChecker,
  cache: CheckCache | undefined,
  units: HandlerUnits,
  /** Called after each file is checked (young-generation.ts). */
  checkpoint: () => void,
): Promise<SchemaIntake> {
  const { config } = checker;
  const atLoad = (options.handlers ?? config.sandbox.loadHandlers ?? 'on-first-call') === 'at-load';
  const reports: SchemaReport[] = [];
  const pending: Array<Promise<CatalogSchema | null>> = [];
  const promptSources: Array<Parameters<typeof servePrompts>[0][number]> = [];
  let sliceStart = performance.now();
  for (const file of files) {
    const check = checker.checkFile(file, cache);
    // Serving shows authoring errors as warnings; errors left are those that dropped a route or the file (R1).
    const report: SchemaReport = { file: check.file, findings: asServed(check.findings), routes: check.routes ?? [] };
    if (check.skipped) report.skipped = check.skipped;
    if (check.prompt) promptSources.push({ file: check.file, sha256: check.sha256, prompt: check.prompt });
    if (check.schema && check.schema.requiredLibraries.length > 0)
      report.requiredLibraries = check.schema.requiredLibraries;
    reports.push(report);
    checkpoint();
    // The version served before stands in for a broken edit, never for the operator's word: one
    // that loads a library the allowlist no longer holds (read again with each load) goes.
    const lastGood = report.findings.some(isError)
      ? options.previous?.schemas.find(
          (entry) =>
            entry.file === check.file &&
            entry.schema.requiredLibraries.every((library) => checker.allowedLibraries.has(library)),
        )
      : undefined;
    if (lastGood) {
      report.lastGood = true;
      report.routes = options.previous?.schemaReports.find((previous) => previous.file === check.file)?.routes ?? [];
      pending.push(acceptSchema(units, lastGood.schema, lastGood.sha256, report, atLoad));
    } else if (check.schema) pending.push(acceptSchema(units, check.schema, check.sha256 ?? '', report, atLoad));
    // Checking is synchronous; with factories run at load, short pauses let the sandbox load
    // those already found while the rest of the files are checked.
    if (atLoad && performance.now() - sliceStart > SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
  const schemas = (await Promise.all(pending)).filter((entry): entry is CatalogSchema => entry !== null);
  return { reports, schemas, promptSources };
}

/**
 * A checked schema taken into the catalog, with its handlers (their factory run now, or on first
 * use); null when they cannot load (the report says why).
 */
async function acceptSchema(
  units: HandlerUnits,
  schema: CanonicalSchema,
  sha256: string,
  report: FileReport,
  atLoad: boolean,
): Promise<CatalogSchema | null> {
  const sink = new FindingSink(schema.file);
  units.add(schema, report.routes ?? [], sink);
  report.findings.push(...sink.findings);
  if (sink.hasErrors()) return null;
  if (!atLoad || !schema.handlers) return { file: schema.file, schema, sha256 };
  const loaded = await units.load(schema.file);
  if (loaded.ok) return { file: schema.file, schema, sha256 };
  report.findings.push(...loaded.findings);
  return null;
}
