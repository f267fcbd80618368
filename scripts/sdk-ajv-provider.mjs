// Bundled in place of the MCP SDK's validation/ajv-provider.js (scripts/bundle.mjs). The SDK's
// Server makes an AjvJsonSchemaValidator in its constructor, for checking what a client answers to
// an elicitation, which flowguard never asks for; the SDK's own provider loads ajv and
// ajv-formats when its module loads and builds an Ajv instance per server, about 25 ms before the
// first tools/list. This one is the SDK's, loaded from node_modules on its first use.

import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export class AjvJsonSchemaValidator {
  #ajv;
  #provider;

  /** `ajv`: an Ajv instance, as the SDK's provider takes; without one it makes its default. */
  constructor(ajv) {
    this.#ajv = ajv;
  }

  getValidator(schema) {
    this.#provider ??= new (require('@modelcontextprotocol/sdk/validation/ajv').AjvJsonSchemaValidator)(this.#ajv);
    return this.#provider.getValidator(schema);
  }
}
