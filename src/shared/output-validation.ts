// What a server does with an answer that does not match its tool's output schema: config's
// `output.validate` (src/config/project.ts), acted on by the MCP layer (src/mcp/content.ts).
// Written once, here below both: the MCP layer reads no config, and it imports from the most
// rooms test/architecture.test.ts allows, so it can take the type only from a room it already
// imports.

/**
 * An `isError` result with a note (`error`), the answer as text, logged and counted (`warn`), or
 * the answer as text, silently (`off`).
 */
export type OutputValidation = 'error' | 'warn' | 'off';
