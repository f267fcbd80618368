// `npm run bundle` (after tsc): the command line and the package entry point, each one module in
// dist/bundle/, with what only some runs need split into chunks that load on first use.
//
// Dependencies stay in node_modules and load from there, except the MCP SDK and zod, which are
// bundled into the chunk of the MCP server: as their own 165 modules they take Node 20 about
// 0.2 s to load, bundled about half that, and esbuild leaves out what flowguard does not reach
// (zod's error messages in 40 languages, among others). ajv stays shared with flowguard's own
// validators. Plain JavaScript: it runs right after tsc, in `prepare` and `build`.

import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** Packages bundled into flowguard's chunks; every other bare import loads from node_modules. */
const BUNDLED = /^(?:@modelcontextprotocol\/sdk|zod|zod-to-json-schema)(?:\/|$)/;
/**
 * The SDK's Ajv provider, as its server imports it and as flowguard's MCP server does: bundled as
 * a stand-in that loads it on first use (sdk-ajv-provider.mjs).
 */
const SDK_AJV_PROVIDER = /^(?:\.\.\/validation\/ajv-provider\.js|@modelcontextprotocol\/sdk\/validation\/ajv)$/;

// Chunk names carry a hash of their content: the chunks of an earlier build would stay behind.
rmSync('dist/bundle', { recursive: true, force: true });
await build({
  entryPoints: { index: 'dist/src/index.js', cli: 'dist/src/cli/main.js' },
  outdir: 'dist/bundle',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'dependencies-from-node-modules',
      setup(builder) {
        builder.onResolve({ filter: SDK_AJV_PROVIDER }, (args) =>
          args.path.startsWith('@') || args.importer.includes('@modelcontextprotocol/sdk')
            ? { path: fileURLToPath(new URL('sdk-ajv-provider.mjs', import.meta.url)) }
            : undefined,
        );
        builder.onResolve({ filter: /^[^./]/ }, (args) =>
          BUNDLED.test(args.path) ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});
