// What the MCP layer needs of a running catalog, declared here so that the protocol layer knows
// no loader: src/runtime/catalog.ts's Catalog is one (as are test doubles). Swapping catalogs
// (`serve --watch`, live-catalog.ts) and serving a group need nothing more.

import type { CallOptions, CallResult, ToolError } from '../call/outcome.js';
import type { CallCaller, CallListener } from '../call/record.js';
import type { SandboxState } from '../catalog/handler-units.js';
import type { Tool } from '../catalog/tools.js';
import type { ServedPrompt } from '../prompts/served.js';
import type { OutputValidation } from '../shared/output-validation.js';

export interface ServedCatalog {
  /** Every tool compiled at load, hidden ones too. */
  readonly tools: readonly Tool[];
  readonly prompts: readonly ServedPrompt[];
  /** What a server does with an answer that departs from its tool's output schema. */
  readonly outputValidation: OutputValidation;
  /** The tools a client may see and call now. */
  visibleTools(): Tool[];
  /** A call, never a dry run: the protocol layer meets no dry-run result. */
  call(nameOrReference: string, args: unknown, options?: CallOptions & { dryRun?: false }): Promise<CallResult>;
  /** The project folder (the search index's cache lives in its .flowmcp/). */
  readonly project: string;
  /**
   * One call record of a call not made, for the audit and the metrics: of a name that is no served
   * tool, or one refused before it ran (`refusal`: an identity over its rate).
   */
  recordCallNotMade(name: string, args: unknown, caller?: CallCaller, refusal?: ToolError): void;
  onCall(listener: CallListener): () => void;
  /** Hands the records of ended calls to the listeners now (a metrics scrape counts every call answered). */
  deliverCallRecords(): void;
  onToolsChanged(listener: () => void): () => void;
  redact(text: string): string;
  sandboxState(): SandboxState;
  close(): Promise<void>;
}
