// Lists as tests write them: a spec object turned into list-file text, and registries built
// from such texts in memory.

import { checkListText, type ListCheck } from '../../src/lists/check.js';
import { buildListRegistry } from '../../src/lists/registry.js';
import type { ListRegistry } from '../../src/lists/types.js';

export interface ListSpec {
  name: string;
  version?: string;
  fields?: Array<{ key: string; type: string; optional?: boolean; description?: string }>;
  entries?: unknown[];
  dependsOn?: unknown[];
}

/** A well-formed list file (kebab-case file name, described fields) for the spec. */
export function listFile(spec: ListSpec): { file: string; text: string } {
  const fields = (spec.fields ?? [{ key: 'code', type: 'string' }]).map((field) => ({
    description: `The ${field.key}.`,
    ...field,
  }));
  const meta = {
    name: spec.name,
    version: spec.version ?? '1.0.0',
    description: `The ${spec.name} list.`,
    fields,
    ...(spec.dependsOn ? { dependsOn: spec.dependsOn } : {}),
  };
  const entries = spec.entries ?? [{ code: 'a' }];
  return {
    file: `${spec.name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}.mjs`,
    text: `export const list = ${JSON.stringify({ meta, entries }, null, 2)};\n`,
  };
}

export function checkSpec(spec: ListSpec): ListCheck {
  const { file, text } = listFile(spec);
  return checkListText(file, text);
}

/** The registry of these lists, checked in this order. */
export function registryOf(...specs: ListSpec[]): ListRegistry {
  return buildListRegistry(specs.map(checkSpec));
}

/** `CODE path` of each finding, for compact assertions. */
export function codesOf(findings: ReadonlyArray<{ code: string; path?: string }>): string[] {
  return findings.map((finding) => (finding.path ? `${finding.code} ${finding.path}` : finding.code));
}
