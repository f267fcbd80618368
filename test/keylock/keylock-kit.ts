// Real parts for the key lock's tests (src/keylock/): a loopback upstream standing for every
// origin, so that a key that went anywhere would arrive there, and a temporary project whose
// schema files declare GITHUB_TOKEN, the victim's file (namespace 'victim', https://api.victim.test)
// written first. `useKeyLockKit()` registers the hooks: the upstream for the test file, the
// project for each test (or, with `scope: 'file'`, for the file, as a server kept running needs).

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { Catalog } from '../../src/runtime/catalog.js';
import type { CatalogOptions } from '../../src/runtime/catalog-options.js';
import { tempProject, type TempProject } from '../kit/project.js';
import { startUpstream, type Upstream } from '../support/upstream.js';

/** The victim's file as the lock records it. */
export const VICTIM = { file: 'schemas/victim/repos.mjs', namespace: 'victim', origins: ['https://api.victim.test'] };

/** A GET route named `name` that sends GITHUB_TOKEN in its query. */
export function repoRoute(name: string): string {
  return `${name}: { method: 'GET', path: '/repo', description: 'A repository', parameters: [{ position: { key: 'token', value: '{{SERVER_PARAM:GITHUB_TOKEN}}', location: 'query' }, z: { primitive: 'string()', options: [] } }], tests: [{ _description: 'a' }] }`;
}

/** A schema file of `namespace` at `root` declaring GITHUB_TOKEN, with `routes` (written as `repoRoute` writes one) and `handlers`. */
export function keySchema(namespace: string, root: string, routes: string, handlers = ''): string {
  return `export const main = { namespace: '${namespace}', name: 'Repos', description: 'Repositories', version: '2.0.0', root: '${root}', requiredServerParams: ['GITHUB_TOKEN'], routes: { ${routes} } };\n${handlers}`;
}

export interface KeyLockKit {
  readonly upstream: Upstream;
  readonly project: TempProject;
  /** The project's schemas folder. */
  readonly schemas: string;
  /** Writes a schema file, by path relative to the schemas folder. */
  writeSchema(file: string, text: string): void;
  /** `.flowmcp/keys.lock.json` of the project. */
  lockFile(): string;
  /** Writes the lock file as it is given. */
  writeLockText(text: string): void;
  /** Writes `lock` as the lock file's JSON. */
  writeLock(lock: unknown): void;
  /** Whether any request the upstream received since `mark` carried the key, in any part. */
  keyArrivedSince(mark: number): boolean;
  /**
   * Loads the project's catalog with the key granted, every origin sent to the upstream and one
   * sandbox process (`options` win), runs `run` and closes it.
   */
  withCatalog(options: Partial<CatalogOptions>, run: (catalog: Catalog) => Promise<void>): Promise<void>;
  /** Removes the project and makes a fresh one (the victim's file only). */
  renew(): void;
}

export function useKeyLockKit({
  token,
  env = false,
  scope = 'each',
}: {
  /** The key's value: a canary a test searches for in what the upstream received. */
  token: string;
  /** Whether the project's `.env` holds the key (the CLI reads it there). */
  env?: boolean;
  /** A project for each test, or one for the test file. */
  scope?: 'each' | 'file';
}): KeyLockKit {
  let upstream: Upstream | undefined;
  let project: TempProject | undefined;
  const open = () => {
    project = tempProject({
      schemas: { 'victim/repos.mjs': keySchema('victim', 'https://api.victim.test', repoRoute('getRepo')) },
      ...(env ? { env: { GITHUB_TOKEN: token } } : {}),
    });
  };
  const close = () => {
    project?.remove();
    project = undefined;
  };
  beforeAll(async () => {
    upstream = await startUpstream();
  });
  afterAll(() => upstream?.close());
  if (scope === 'each') {
    beforeEach(open);
    afterEach(close);
  } else {
    beforeAll(open);
    afterAll(close);
  }
  const opened = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the key lock kit's ${what} is used outside a test`);
    return value;
  };
  const kit: KeyLockKit = {
    get upstream() {
      return opened(upstream, 'upstream');
    },
    get project() {
      return opened(project, 'project');
    },
    get schemas() {
      return kit.project.schemas;
    },
    writeSchema: (file, text) => void kit.project.write(join('schemas', file), text),
    lockFile: () => join(kit.project.dir, '.flowmcp', 'keys.lock.json'),
    writeLockText(text) {
      mkdirSync(join(kit.project.dir, '.flowmcp'), { recursive: true });
      writeFileSync(kit.lockFile(), text);
    },
    writeLock: (lock) => kit.writeLockText(JSON.stringify(lock)),
    keyArrivedSince: (mark) => JSON.stringify(kit.upstream.since(mark)).includes(token),
    async withCatalog(options, run) {
      const catalog = await Catalog.load({
        schemas: kit.schemas,
        project: kit.project.dir,
        env: {},
        keys: { GITHUB_TOKEN: token },
        upstreams: { '*': kit.upstream.origin },
        sandbox: { size: 1 },
        ...options,
      });
      try {
        await run(catalog);
      } finally {
        await catalog.close();
      }
    },
    renew() {
      close();
      open();
    },
  };
  return kit;
}
