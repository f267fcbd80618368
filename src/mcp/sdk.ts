// The MCP SDK's runtime values, loaded from its CommonJS build. Its ESM build and zod's are
// about 165 modules, and Node 20's ESM loader takes about a quarter longer to load them than
// `require` takes for the same code (median of 10 fresh processes: 232 ms against 177 ms);
// a server waits for them before it answers `initialize`. Types still come from the package's
// declarations, which are the same for both builds. Only these modules load the SDK, so its
// classes (McpError) are one copy throughout flowguard.

import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

type ServerModule = typeof import('@modelcontextprotocol/sdk/server/index.js');
type TypesModule = typeof import('@modelcontextprotocol/sdk/types.js');
type AjvModule = typeof import('@modelcontextprotocol/sdk/validation/ajv');

export const { Server } = require('@modelcontextprotocol/sdk/server/index.js') as ServerModule;
export type Server = InstanceType<typeof Server>;
export const { AjvJsonSchemaValidator } = require('@modelcontextprotocol/sdk/validation/ajv') as AjvModule;
export type AjvJsonSchemaValidator = InstanceType<typeof AjvJsonSchemaValidator>;
export const { CallToolRequestSchema, ErrorCode, GetPromptRequestSchema, ListPromptsRequestSchema, ListToolsRequestSchema, McpError, isInitializeRequest } =
  require('@modelcontextprotocol/sdk/types.js') as TypesModule;

/** The transports, each loaded only by the command that serves over it. */
export const stdioTransport = () => (require('@modelcontextprotocol/sdk/server/stdio.js') as typeof import('@modelcontextprotocol/sdk/server/stdio.js')).StdioServerTransport;
export const httpTransport = () =>
  (require('@modelcontextprotocol/sdk/server/streamableHttp.js') as typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js')).StreamableHTTPServerTransport;
