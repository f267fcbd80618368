// The one way tests build a project folder: a temp directory holding what the test names (schema
// files under schemas/, list files under lists/, a .env, .flowmcp/config.json and groups.json,
// any other file), and nothing else. No .env unless asked: keys come only from what the test gives.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface ProjectSpec {
  /** `.flowmcp/config.json` (none when omitted). */
  config?: unknown;
  /** `.flowmcp/groups.json` (none when omitted). */
  groups?: unknown;
  /** The `.env` file's variables (none when omitted). */
  env?: Record<string, string>;
  /** Files under `schemas/`, by path relative to it (no folder when omitted; `{}` makes an empty one). */
  schemas?: Record<string, string>;
  /** Files under `lists/`, by path relative to it (no folder when omitted). */
  lists?: Record<string, string>;
  /** Any other file, by path relative to the project. */
  files?: Record<string, string>;
}

export interface TempProject {
  dir: string;
  /** `<dir>/schemas`. */
  schemas: string;
  /** `<dir>/lists`. */
  lists: string;
  /** Writes (or rewrites) a file, by path relative to the project, making its folders. */
  write(path: string, text: string): string;
  remove(): void;
}

/** A throwaway project folder; `remove()` deletes it (call it in afterAll/finally). */
export function tempProject(spec: ProjectSpec = {}): TempProject {
  const dir = mkdtempSync(join(tmpdir(), 'flowguard-test-'));
  const write = (path: string, text: string): string => {
    const file = join(dir, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    return file;
  };
  const project: TempProject = {
    dir,
    schemas: join(dir, 'schemas'),
    lists: join(dir, 'lists'),
    write,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
  if (spec.schemas !== undefined) mkdirSync(project.schemas);
  if (spec.config !== undefined) write('.flowmcp/config.json', JSON.stringify(spec.config));
  if (spec.groups !== undefined) write('.flowmcp/groups.json', JSON.stringify(spec.groups));
  if (spec.env !== undefined)
    write(
      '.env',
      Object.entries(spec.env)
        .map(([name, value]) => `${name}=${value}\n`)
        .join(''),
    );
  for (const [path, text] of Object.entries(spec.schemas ?? {})) write(join('schemas', path), text);
  for (const [path, text] of Object.entries(spec.lists ?? {})) write(join('lists', path), text);
  for (const [path, text] of Object.entries(spec.files ?? {})) write(path, text);
  return project;
}
