// Names the checker accepts: namespace `^[a-z]+$`, route names `^[a-z][a-zA-Z0-9]*$`, `main.name`
// PascalCase, file names in kebab case. Derived from the document's own words.

import { createHash } from 'node:crypto';
import { PORTABLE_NAMESPACE } from '../schema/version.js';

/** The longest file stem or route name an import writes, whatever the length of the tag or operationId it comes from. */
const MAX_NAME_LENGTH = 64;
const HASH_LENGTH = 8;

export function isNamespace(text: string): boolean {
  return PORTABLE_NAMESPACE.test(text);
}

/** `Most Popular API` -> `mostpopular`: the title's letters, at most 24 of them. */
export function namespaceFromTitle(title: string): string {
  const letters = title
    .toLowerCase()
    .replace(/\bapi\b/g, '')
    .replace(/[^a-z]/g, '')
    .slice(0, 24);
  return letters || 'api';
}

function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
}

export function camelCase(text: string): string {
  const words = wordsOf(text).map((word) => word.toLowerCase());
  const joined = words.map((word, index) => (index === 0 ? word : word[0]!.toUpperCase() + word.slice(1))).join('');
  return /^[a-z]/.test(joined) ? joined : `op${joined[0]?.toUpperCase() ?? ''}${joined.slice(1)}`;
}

export function pascalCase(text: string): string {
  const camel = camelCase(text);
  return camel[0]!.toUpperCase() + camel.slice(1);
}

function kebabCase(text: string): string {
  return (
    wordsOf(text)
      .map((word) => word.toLowerCase())
      .join('-') || 'default'
  );
}

/** A route name from the operationId, else from the method and the path's words (`getPetsPetId`). */
export function routeNameOf(method: string, path: string, operationId: unknown): string {
  const name =
    typeof operationId === 'string' && wordsOf(operationId).length > 0
      ? camelCase(operationId)
      : camelCase(`${method.toLowerCase()} ${path.replace(/[{}]/g, ' ')}`);
  return shortened(name, '');
}

/** A file stem from a group's label (a tag or a path segment). */
export function fileStemOf(label: string): string {
  return shortened(kebabCase(label), '-');
}

/**
 * The name, or when it is longer than MAX_NAME_LENGTH its start and a hash of the whole: a
 * 300-character tag would otherwise be a file name the file system refuses, and two long names
 * that start alike stay apart.
 */
function shortened(name: string, separator: '' | '-'): string {
  if (name.length <= MAX_NAME_LENGTH) return name;
  const hash = createHash('sha256').update(name, 'utf8').digest('hex').slice(0, HASH_LENGTH);
  const start = name.slice(0, MAX_NAME_LENGTH - HASH_LENGTH - separator.length).replace(/-+$/, '');
  return `${start}${separator}${hash}`;
}

/** The name, or the name with the first free number after it. */
export function unique(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate); n++) candidate = `${name}${n}`;
  taken.add(candidate);
  return candidate;
}
