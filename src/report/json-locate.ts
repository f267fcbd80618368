// Where each value of a JSON text starts, so that findings about a JSON file (groups.json) carry
// a line and column, and which keys it writes twice (JSON.parse silently keeps the last).

import { childPath } from './findings.js';

export interface JsonLocations {
  /** Offset of each member's key (or each array element) by finding path, down to the depth asked for. */
  offsets: Map<string, number>;
  /** Keys written twice in one object. */
  duplicates: Array<{ parent: string; key: string; path: string }>;
}

/**
 * Where each value of a JSON text starts, for line and column in findings. Runs only on text
 * JSON.parse has accepted. Recursion stops at `maxDepth`; deeper values are skipped by a
 * loop, so a deeply nested file cannot exhaust the stack.
 */
export function locateJson(text: string, maxDepth: number): JsonLocations {
  const offsets = new Map<string, number>([['', 0]]);
  const duplicates: JsonLocations['duplicates'] = [];
  let at = 0;
  const space = () => {
    while (at < text.length && ' \t\r\n'.includes(text.charAt(at))) at += 1;
  };
  const skipString = () => {
    at += 1;
    while (at < text.length && text.charAt(at) !== '"') at += text.charAt(at) === '\\' ? 2 : 1;
    at += 1;
  };
  const skipValue = () => {
    const c = text.charAt(at);
    if (c === '"') {
      skipString();
      return;
    }
    if (c !== '{' && c !== '[') {
      while (at < text.length && !',}] \t\r\n'.includes(text.charAt(at))) at += 1;
      return;
    }
    let depth = 0;
    while (at < text.length) {
      const d = text.charAt(at);
      if (d === '"') {
        skipString();
        continue;
      }
      at += 1;
      if (d === '{' || d === '[') depth += 1;
      else if ((d === '}' || d === ']') && --depth === 0) return;
    }
  };
  const value = (path: string, depth: number): void => {
    space();
    offsets.set(path, offsets.get(path) ?? at);
    const c = text.charAt(at);
    if (depth >= maxDepth || (c !== '{' && c !== '[')) {
      skipValue();
      return;
    }
    at += 1;
    space();
    const close = c === '{' ? '}' : ']';
    const keys = new Set<string>();
    for (let index = 0; text.charAt(at) !== close && at < text.length; index += 1) {
      if (c === '{') {
        const start = at;
        skipString();
        const key = JSON.parse(text.slice(start, at)) as string;
        const child = path === '' ? rootPath(key) : childPath(path, key);
        if (keys.has(key)) duplicates.push({ parent: path, key, path: child });
        keys.add(key);
        offsets.set(child, start);
        space();
        at += 1; // ':'
        value(child, depth + 1);
      } else {
        value(childPath(path, index), depth + 1);
      }
      space();
      if (text.charAt(at) === ',') at += 1;
      space();
    }
    at += 1;
  };
  value('', 0);
  return { offsets, duplicates };
}

/** A top-level key as a finding path: `groups`, or `["odd key"]`. */
function rootPath(key: string): string {
  return childPath('', key).replace(/^\./, '');
}

/** Where JSON.parse stopped, from its message (`... at position 12`); undefined where it does not say. */
export function jsonErrorOffset(error: unknown, text: string): number | undefined {
  const match = /position (\d+)/.exec((error as Error).message);
  if (match) return Math.min(Number(match[1]), text.length);
  return undefined;
}
