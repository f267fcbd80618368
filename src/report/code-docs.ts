// Why each finding code exists and how to fix what it reports, by topic: the data the page
// docs/reference/findings.md is generated from (`npm run generate`, scripts/generate-docs.ts).
// A code's severity and one-line meaning stay in CODES (codes.ts); code-docs-schema.ts and
// code-docs-project.ts add what a reader needs to act on it. test/docs/reference.test.ts fails while a code of CODES has no
// entry here or the page is stale.

import type { Code } from './codes.js';
import { PROJECT_CODE_SECTIONS } from './code-docs-project.js';
import { SCHEMA_CODE_SECTIONS } from './code-docs-schema.js';

export interface CodeDoc {
  /** The reason the rule exists, in a phrase. */
  why: string;
  /** What the author or operator does about it. */
  fix: string;
}

export interface CodeSection {
  title: string;
  codes: Partial<Record<Code, CodeDoc>>;
}

/** In the order the page shows them: what a schema file may hold, then everything around schema files. */
export const CODE_SECTIONS: readonly CodeSection[] = [...SCHEMA_CODE_SECTIONS, ...PROJECT_CODE_SECTIONS];
