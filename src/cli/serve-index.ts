// Discovery's search indexes, made before anyone searches: a second after the server starts (so
// that they do not hold up the client's initialize and first tools/list) and again as soon as a
// reload or a handler failure changes the tools served (`serve --watch`), so that the first search
// after a change does not pay for the build. Each build says when it is ready, how long it took
// and whether it was read from the index cache (else how many schema files' terms were read from the per-file cache and how many made).

import type { LiveCatalog } from '../mcp/live-catalog.js';
import type { Tool } from '../catalog/tools.js';
import type { Logger } from '../observe/logger.js';

/** A tool set served in discovery mode: the catalog's (`tools` undefined) or a group endpoint's. */
export interface IndexedSet {
  tools?: readonly Tool[];
  group?: string;
}

/** How long after the start the first builds wait. */
const START_DELAY_MS = 1000;

export function prepareIndexes(live: LiveCatalog, sets: readonly IndexedSet[], logger: Logger): void {
  if (sets.length === 0) return;
  const build = () =>
    void import('../mcp/server.js')
      .then((server) => {
        for (const set of sets) {
          // One set's failure leaves the others built; its first search builds it and says why.
          try {
            const start = performance.now();
            const index = server.prepareDiscovery(live.current, set.tools);
            logger.info(
              {
                group: set.group,
                tools: index.size,
                ms: Math.round(performance.now() - start),
                cached: index.fromCache,
                filesRead: index.termSources.read,
                filesMade: index.termSources.made,
              },
              'search index ready',
            );
          } catch (error) {
            logger.warn(
              { group: set.group, error: String(error).slice(0, 500) },
              'the search index could not be built ahead; the first search builds it',
            );
          }
        }
      })
      .catch((error: unknown) =>
        logger.warn(
          { error: String(error).slice(0, 500) },
          'the search index could not be built ahead; the first search builds it',
        ),
      );
  setTimeout(build, START_DELAY_MS).unref();
  // After the listeners that drop the old tables: the build below makes the new ones.
  live.onToolsChanged(() => setImmediate(build));
}
