// Route drafts grouped into schema files and written as FlowMCP source text, each file checked
// by the project's checker before it is handed back: a route the checker finds an error in is
// taken out of its file and reported, so every file returned validates without errors.
//
// Grouping: by the operation's first tag, else its first path segment; within a group, routes
// that share a root and the same key placements (headers and keys are per file) go together, at
// most eight to a file (the checker's limit).

import { basename } from 'node:path';
import { childPath, type Finding } from '../report/findings.js';
import { terminalText } from '../report/format.js';
import { isRecord } from '../shared/raw.js';
import { checkSchemaText } from '../schema/check.js';
import { formatBlock, OneLine } from '../migrate/format.js';
import type { OpenApiDocument } from './document.js';
import { cutDescription } from './json-schema.js';
import { fileStemOf, pascalCase, routeNameOf, unique } from './names.js';
import type { RouteDraft } from './route.js';
import type { ImportFinding, WrittenRoute } from './types.js';

const MAX_ROUTES_PER_FILE = 8;

export interface PlannedFile {
  /** File name, e.g. `pets.mjs`. */
  name: string;
  text: string;
  routes: WrittenRoute[];
  /** The checker's warnings and infos, formatted. */
  check: string[];
}

interface Member {
  draft: RouteDraft;
  name: string;
}

export function planFiles(
  document: OpenApiDocument,
  drafts: readonly RouteDraft[],
  namespace: string,
  source: string,
  findings: ImportFinding[],
): PlannedFile[] {
  const routeNames = new Set<string>();
  const named = drafts.map((draft) => ({
    draft,
    name: unique(
      routeNameOf(draft.operation.method, draft.operation.path, draft.operation.operation.operationId),
      routeNames,
    ),
  }));
  const groups = new Map<string, { label: string; members: Member[] }>();
  for (const entry of named) {
    const label = groupLabel(entry.draft);
    const signature = `${label}\u0000${entry.draft.root}\u0000${entry.draft.keys
      .map((key) => `${key.where}:${key.name}=${key.value}`)
      .sort()
      .join('\u0000')}`;
    const group = groups.get(signature) ?? { label, members: [] };
    group.members.push(entry);
    groups.set(signature, group);
  }
  const fileNames = new Set<string>();
  const files: PlannedFile[] = [];
  for (const group of groups.values()) {
    for (let start = 0; start < group.members.length; start += MAX_ROUTES_PER_FILE) {
      const members = group.members.slice(start, start + MAX_ROUTES_PER_FILE);
      const stem = unique(fileStemOf(group.label), fileNames);
      const file = checkedFile(document, `${stem}.mjs`, namespace, group.label, source, members, findings);
      if (file) files.push(file);
    }
  }
  return files;
}

function groupLabel({ operation }: RouteDraft): string {
  const tags = operation.operation.tags;
  if (Array.isArray(tags) && typeof tags[0] === 'string' && tags[0].trim() !== '') return tags[0];
  return operation.path.split('/').find((segment) => segment !== '' && !segment.includes('{')) ?? 'root';
}

/** The file's text with the members the checker accepts; members with an error become findings. */
function checkedFile(
  document: OpenApiDocument,
  name: string,
  namespace: string,
  label: string,
  source: string,
  members: Member[],
  findings: ImportFinding[],
): PlannedFile | null {
  let remaining = members;
  // Each round removes at least one route, so this ends.
  while (remaining.length > 0) {
    const text = schemaText(document, namespace, label, source, remaining);
    const check = checkSchemaText(name, text, { allowedLibraries: new Set() });
    const errors = check.findings.filter((finding) => finding.severity === 'error');
    if (errors.length === 0) {
      return {
        name,
        text,
        routes: remaining.map(({ draft, name: routeName }) => writtenRoute(draft, routeName)),
        check: check.findings.map(formatCheck),
      };
    }
    const failing = new Set(
      remaining
        .filter(({ name: routeName }) => errors.some((error) => isInRoute(error, routeName)))
        .map(({ name: routeName }) => routeName),
    );
    // An error outside every route concerns the file: none of its routes can be written.
    const fileLevel = errors.some((error) => !remaining.some(({ name: routeName }) => isInRoute(error, routeName)));
    for (const member of remaining) {
      if (!fileLevel && !failing.has(member.name)) continue;
      const own = errors.filter((error) => isInRoute(error, member.name) || fileLevel);
      findings.push({
        kind: 'check',
        severity: 'error',
        operation: member.draft.operation.label,
        message: `the generated route does not validate: ${own.map(formatCheck).join('; ')}`,
      });
    }
    remaining = fileLevel ? [] : remaining.filter(({ name: routeName }) => !failing.has(routeName));
  }
  return null;
}

function isInRoute(finding: Finding, routeName: string): boolean {
  const prefix = childPath('main.routes', routeName);
  return (
    finding.path !== undefined &&
    (finding.path === prefix || finding.path.startsWith(`${prefix}.`) || finding.path.startsWith(`${prefix}[`))
  );
}

function formatCheck(finding: Finding): string {
  return `${finding.code} ${finding.severity}${finding.path ? ` ${finding.path}` : ''}: ${finding.message}`;
}

function writtenRoute(draft: RouteDraft, name: string): WrittenRoute {
  const operationId = draft.operation.operation.operationId;
  return { name, operation: draft.operation.label, ...(typeof operationId === 'string' ? { operationId } : {}) };
}

function schemaText(
  document: OpenApiDocument,
  namespace: string,
  label: string,
  source: string,
  members: Member[],
): string {
  const info = isRecord(document.raw.info) ? document.raw.info : {};
  const title = typeof info.title === 'string' && info.title.trim() ? info.title.trim() : namespace;
  const first = members[0]!.draft;
  const headers = Object.fromEntries(
    first.keys.filter((key) => key.where === 'header').map((key) => [key.name, key.value]),
  );
  const keys = [...new Set(first.keys.map((key) => key.key))];
  const externalDocs =
    isRecord(document.raw.externalDocs) && typeof document.raw.externalDocs.url === 'string'
      ? document.raw.externalDocs.url
      : '';
  const routes = Object.fromEntries(
    members.map(({ draft, name }) => {
      const { parameters, tests, ...rest } = draft.route;
      return [
        name,
        {
          ...rest,
          parameters: parameters.map((parameter) => new OneLine(parameter)),
          tests: tests.map((test) => new OneLine(test)),
        },
      ];
    }),
  );
  const main = {
    namespace,
    name: pascalCase(`${title} ${label}`).slice(0, 64),
    description: cutDescription(
      `${title}: ${label}. ${tagDescription(document, label) || cutDescription(info.description, 200)}`.replace(
        /\.\s*$/,
        '.',
      ),
      300,
    ),
    version: '2.0.0',
    docs: externalDocs.startsWith('https://') ? [externalDocs] : [],
    tags: [],
    root: first.root,
    requiredServerParams: keys,
    headers,
    routes,
  };
  // The title and label are the document's text: on one line and escaped, they can neither end the
  // comment nor disguise the code below in an editor.
  const about = terminalText(`"${title}", ${label}`.replace(/\s+/g, ' '));
  return `// Generated by \`flowguard import openapi\` from ${basename(source)} (${document.format}): ${about}.\n// Read the tests' values and descriptions before you serve it.\n\nexport const main = ${formatBlock(main)};\n`;
}

function tagDescription(document: OpenApiDocument, label: string): string {
  const tags = Array.isArray(document.raw.tags) ? document.raw.tags : [];
  const tag = tags.find((entry) => isRecord(entry) && entry.name === label);
  return isRecord(tag) ? cutDescription(tag.description, 200) : '';
}
