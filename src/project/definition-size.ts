// VAL100: a route whose tool definition would be listed cut (schema/affordable.ts), told to
// its author by `validate`. The definition is sized as `serve` lists it (name, reference,
// description, input schema, output schema where one converts), so that the finding and the
// cut agree; an author makes it fit by trimming an enum of hundreds of values to a list
// parameter or a free string, and an output schema to what a caller reads.

import { childPath, FindingSink, type Finding } from '../report/findings.js';
import type { CanonicalSchema } from '../schema/types.js';
import { affordableDefinition, MAX_DEFINITION_TOKENS, tokensOfChars } from '../schema/affordable.js';
import { InputSchema } from '../schema/tool-input.js';
import { outputSchemaCharsBound, toOutputSchema } from '../schema/tool-output.js';

/** A VAL100 finding for each route of `schema` whose listed definition is over the bound. */
export function largeDefinitions(schema: CanonicalSchema, text: string): Finding[] {
  const sink = new FindingSink(schema.file, text);
  // The tool map's key as the file writes it: 2.x has `routes`, later versions `tools` (or, where a file keeps it, `routes`).
  const mapKey = schema.version.startsWith('2.') || !/\btools\s*:/.test(text) ? 'routes' : 'tools';
  for (const route of schema.routes) {
    const listed = {
      name: `${schema.namespace}_${route.name}`,
      title: `${schema.namespace}/${route.name}`,
      description: route.description,
      inputSchema: InputSchema.fromParameters(route.parameters).schema,
    };
    // Most definitions are far below the bound: a bound on their size spares converting their output schema.
    const charsBound = JSON.stringify(listed).length + outputSchemaCharsBound(route.output);
    if (tokensOfChars(charsBound) <= MAX_DEFINITION_TOKENS) continue;
    const definition = { ...listed, outputSchema: toOutputSchema(route.output) };
    const { cuts, tokens } = affordableDefinition(definition);
    if (cuts.length === 0) continue;
    sink.add(
      'VAL100',
      childPath(childPath('main', mapKey), route.name),
      `the tool's definition is about ${tokens} tokens, over the ${MAX_DEFINITION_TOKENS} a listing gives one tool: it is listed with ${cuts.join('; ')}`,
      'keep what a model needs to pick and call the tool: an enum of hundreds of values as a free string (or a shared list), an output schema of the fields callers read',
    );
  }
  return sink.findings;
}
