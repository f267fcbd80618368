import { defineConfig } from 'vitest/config';
import { DIST, INTEGRATION } from './test/tiers.js';

// Three tiers (test/tiers.ts says which file is in which): `npm run test:unit` runs in seconds
// with no build; `npm test` runs all three. Unit files run in worker threads, which start faster
// than processes (a quarter less CPU for the tier); the other tiers keep vitest's processes.
export default defineConfig({
  test: {
    testTimeout: 20_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...INTEGRATION, ...DIST],
          setupFiles: ['test/kit/unit-guard.ts'],
          pool: 'threads',
        },
      },
      { extends: true, test: { name: 'integration', include: [...INTEGRATION] } },
      { extends: true, test: { name: 'dist', include: [...DIST] } },
    ],
  },
});
