// The programmatic API as a package user sees it: the package's own entry point.

import { expect, it } from 'vitest';
import { CODES, loadCatalog } from 'flowguard';

it('loads the bundled catalog and dry-runs a call through the package entry point', async () => {
  const catalog = await loadCatalog({ schemas: 'schemas', env: {} });
  try {
    expect(catalog.tools.length).toBeGreaterThan(10);
    const result = await catalog.call('openmeteo_getForecast', { latitude: 52.52, longitude: 13.41 }, { dryRun: true });
    expect(result).toMatchObject({ ok: true, dryRun: { method: 'GET' } });
    expect(Object.keys(CODES)).toContain('SEC001');
  } finally {
    await catalog.close();
  }
});
