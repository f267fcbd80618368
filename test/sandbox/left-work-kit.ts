// What the tests of work a call leaves behind (worker.left-timers, worker.left-promise-timers)
// share: a route written in one line, a calm schema in the same sandbox process as the one that
// leaves work, and the check that the calm schema's calls are still answered.

import { expect } from 'vitest';
import type { Catalog } from '../../src/runtime/catalog.js';

/** A GET route of that name, with no parameters and one test, as a schema's `routes` writes it. */
export const ROUTE = (name: string) =>
  `${name}: { method: 'GET', path: '/${name}', description: 'A route.', parameters: [], tests: [{ _description: 'a' }] }`;

/** A schema whose one handler computes (`calm_add` answers 2): the bystander. */
export const CALM = `export const main = {
    namespace: 'calm', name: 'Calm', description: 'Computes.', version: '2.0.0', docs: [], tags: [],
    root: 'https://api.calm.test',
    routes: { ${ROUTE('add')} }
};
export const handlers = () => ({ add: { executeRequest: async () => ({ response: 1 + 1 }) } });
`;

/**
 * The calm schema's calls after another answered: each must be answered, none failed for it.
 * Between them the host waits past the left work's 20 ms, so the next call goes to a process where
 * that work would have run.
 */
export async function calmCallsAnswered(catalog: Catalog): Promise<void> {
  for (let round = 0; round < 3; round += 1) {
    expect(await catalog.call('calm_add', {})).toMatchObject({ ok: true, content: { value: 2 } });
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
}
