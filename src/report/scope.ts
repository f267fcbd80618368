// What a finding takes out of service (decision R1): the smallest unit it makes unusable. The
// scope follows from where the finding sits, so one table of places decides it for every code:
//
// - inside a route (`main.routes.<name>` or `main.tools.<name>`): that route only;
// - in a route's description, output, preload, tests or meta, in a parameter's description,
//   or in `main`'s descriptive fields (name, description, docs, tags, terms of service, licence,
//   schemaVersion, schemaHash, the tool meta defaults) and the primitives flowguard does not
//   serve: nothing. These are authoring findings: an error among them fails `validate`, while
//   `serve`, `list` and `doctor` show it as a warning;
// - anywhere else (the syntax, the scan, the handlers factory, `root`, `headers`, keys,
//   libraries, shared lists, no path at all): the whole file.
//
// One code is the exception: SEC300, a key the key lock holds back, hides the tools of its file
// (as a key without a value does) and takes nothing else out of service.

import { isError, type Finding } from './findings.js';

export type Scope = { unit: 'file' } | { unit: 'route'; route: string } | { unit: 'nothing' } | { unit: 'keys' };

/** The parts of a route that describe it to authors and clients; a request is built without them. */
const DESCRIPTIVE_ROUTE_PARTS: ReadonlySet<string> = new Set([
  'description',
  'output',
  'preload',
  'tests',
  'meta',
  'outputSchema',
]);
/** The fields of `main` no request depends on. */
const DESCRIPTIVE_MAIN_FIELDS: ReadonlySet<string> = new Set([
  'name',
  'description',
  'docs',
  'tags',
  'meta',
  'resources',
  'skills',
  'prompts',
  'termsOfService',
  'termsOfServiceCheckedAt',
  'termsOfServiceLanguage',
  'dataLicense',
  'dataLicenseName',
  'schemaVersion',
  'schemaHash',
]);
/** `<key>` or `["<key>"]` at the start of a path rest, as childPath writes them. */
const STEP = /^(?:\.([A-Za-z_$][\w$]*)|\[("(?:[^"\\]|\\.)*")\])/;
const PARAMETER_DESCRIPTION = /^\.parameters\[\d+\](?:\.z)?\.description\b/;

export function scopeOf(finding: Pick<Finding, 'path'> & Partial<Pick<Finding, 'code'>>): Scope {
  // A key the key lock holds back hides the tools of its file, as a missing key does; the file loads.
  if (finding.code === 'SEC300') return { unit: 'keys' };
  const path = finding.path;
  if (path === undefined || !path.startsWith('main')) return { unit: 'file' };
  const top = nextStep(path.slice('main'.length));
  if (!top) return { unit: 'file' };
  if (top.key === 'routes' || top.key === 'tools') {
    const route = nextStep(top.rest);
    if (!route) return { unit: 'file' };
    const part = nextStep(route.rest);
    if ((part && DESCRIPTIVE_ROUTE_PARTS.has(part.key)) || PARAMETER_DESCRIPTION.test(route.rest))
      return { unit: 'nothing' };
    return { unit: 'route', route: route.key };
  }
  return DESCRIPTIVE_MAIN_FIELDS.has(top.key) ? { unit: 'nothing' } : { unit: 'file' };
}

/** An error that takes nothing out of service; serving commands show it as a warning. */
export function isAuthoringError(finding: Finding): boolean {
  return isError(finding) && scopeOf(finding).unit === 'nothing';
}

/** The findings as `serve`, `list` and `doctor` show them: authoring errors as warnings (R1). */
export function asServed(findings: readonly Finding[]): Finding[] {
  return findings.map((finding) => (isAuthoringError(finding) ? { ...finding, severity: 'warning' } : finding));
}

function nextStep(rest: string): { key: string; rest: string } | null {
  const match = STEP.exec(rest);
  if (!match) return null;
  const key = match[1] ?? (JSON.parse(match[2] as string) as string);
  return { key, rest: rest.slice(match[0].length) };
}

/** What a file's findings leave of it: rejected, skipped (no schema), or loaded with some routes dropped. */
export type FileVerdict =
  | { status: 'rejected'; error: Finding }
  | { status: 'skipped'; kind: string }
  | { status: 'loads'; routes: number; dropped: Array<{ route: string; error: Finding }> };

/** A checked file as reports carry it: schema files add the routes they declare, or what they are instead. */
export interface CheckedFile {
  findings: readonly Finding[];
  routes?: readonly string[];
  skipped?: string;
}

export function fileVerdict(file: CheckedFile): FileVerdict {
  if (file.skipped) return { status: 'skipped', kind: file.skipped };
  const dropped = new Map<string, Finding>();
  for (const finding of file.findings) {
    if (!isError(finding)) continue;
    const scope = scopeOf(finding);
    if (scope.unit === 'file') return { status: 'rejected', error: finding };
    if (scope.unit === 'route' && !dropped.has(scope.route)) dropped.set(scope.route, finding);
  }
  return {
    status: 'loads',
    routes: file.routes?.length ?? 0,
    dropped: [...dropped].map(([route, error]) => ({ route, error })),
  };
}
