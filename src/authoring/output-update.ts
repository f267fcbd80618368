// `--update-output`: the `output.schema` of each tested route made afresh from the JSON answers
// of the run (output-infer.ts), written into its schema file (output-edit.ts) as a unified diff
// the author sees before anything is written. An edit that would give the file an error it did
// not have is refused: the edited text is checked by the project checker, as `validate` would.

import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Tool } from '../catalog/tools.js';
import type { ProjectChecker } from '../project/checker.js';
import { isError, type Finding } from '../report/findings.js';
import { formatFinding } from '../report/format.js';
import { sortedJson } from '../shared/sorted-json.js';
import { writeWhole } from '../shared/write-whole.js';
import { applyOutputEdits, type OutputEdit } from './output-edit.js';
import { inferOutputSchema } from './output-infer.js';
import type { RouteTestResult } from './route-tests-run.js';

/** A schema file's new text, for the routes whose output changes. */
export interface OutputUpdate {
  file: string;
  before: string;
  after: string;
  /** Tool references whose `output.schema` changes. */
  changed: string[];
  /** Unified diff of the file, before → after. */
  diff: string;
}

export interface OutputUpdatePlan {
  updates: OutputUpdate[];
  /** Files left as they are, and why (an edit that cannot be placed, or that adds an error). */
  refused: Array<{ file: string; problem: string }>;
  /** Tool references whose output already says what the answers show. */
  unchanged: string[];
  /** Tool references with no JSON answer in this run: nothing to infer from. */
  unanswered: string[];
  /** What the answers showed that an output schema cannot say exactly (output-infer.ts), by tool reference. */
  notes: string[];
}

/** What the run's answers would change in the tested routes' files. */
export async function planOutputUpdates(
  results: readonly RouteTestResult[],
  checker: ProjectChecker,
): Promise<OutputUpdatePlan> {
  const plan: OutputUpdatePlan = { updates: [], refused: [], unchanged: [], unanswered: [], notes: [] };
  const byFile = new Map<string, Array<{ tool: Tool; edit: OutputEdit }>>();
  for (const [tool, answers] of jsonAnswersByTool(results)) {
    if (answers.length === 0) {
      plan.unanswered.push(tool.reference);
      continue;
    }
    const current = tool.route.output;
    const { schema, notes } = inferOutputSchema(answers, current?.schema);
    plan.notes.push(...notes.map((note) => `${tool.reference} ${note}`));
    if (current?.mimeType === 'application/json' && sameJson(current.schema, schema)) {
      plan.unchanged.push(tool.reference);
      continue;
    }
    const edits = byFile.get(tool.schema.file) ?? [];
    edits.push({ tool, edit: { route: tool.routeName, schema } });
    byFile.set(tool.schema.file, edits);
  }
  const { createTwoFilesPatch } = await import('diff');
  for (const [file, edits] of byFile) {
    const before = readFileSync(file, 'utf8');
    const edited = applyOutputEdits(
      before,
      edits.map(({ edit }) => edit),
    );
    if ('problem' in edited) {
      plan.refused.push({ file, problem: `${edited.problem}; write its output by hand` });
      continue;
    }
    const added = addedErrors(checker, file, edited.text);
    if (added.length > 0) {
      plan.refused.push({
        file,
        problem: `the edit would add ${added.length === 1 ? 'an error' : `${added.length} errors`}: ${added.map(formatFinding).join('; ')}`,
      });
      continue;
    }
    plan.updates.push({
      file,
      before,
      after: edited.text,
      changed: edits.map(({ tool }) => tool.reference),
      diff: createTwoFilesPatch(file, file, before, edited.text, '', '', { context: 3 }),
    });
  }
  return plan;
}

/** Writes an update, provided the file still holds the text it was planned from; false when it changed since. */
export function writeOutputUpdate(update: OutputUpdate): boolean {
  if (readFileSync(update.file, 'utf8') !== update.before) return false;
  // Whole: a watching server never reads half a file.
  writeWhole(update.file, update.after);
  return true;
}

/** Per tool tested, the JSON values of its successful calls (answers that mismatch count: they are what the API says now). */
function jsonAnswersByTool(results: readonly RouteTestResult[]): Map<Tool, unknown[]> {
  const answers = new Map<Tool, unknown[]>();
  for (const { tool, result } of results) {
    const values = answers.get(tool) ?? [];
    if (result.ok && 'content' in result && result.content.kind === 'json') values.push(result.content.value);
    answers.set(tool, values);
  }
  return answers;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortedJson(a)) === JSON.stringify(sortedJson(b));
}

/**
 * Errors the edited text has that the file's current text has not, by code, path and message
 * (lines move with the edit). The text is checked from a file beside the original, so that it
 * is read against the same folder, config and lists.
 */
function addedErrors(checker: ProjectChecker, file: string, text: string): Finding[] {
  const key = (finding: Finding) => `${finding.code}\n${finding.path ?? ''}\n${finding.message}`;
  const known = new Set(checker.checkFile(file).findings.filter(isError).map(key));
  const temp = siblingPath(file);
  try {
    writeFileSync(temp, text);
    return checker
      .checkFile(temp)
      .findings.filter((finding) => isError(finding) && !known.has(key(finding)))
      .map((finding) => ({ ...finding, file }));
  } finally {
    rmSync(temp, { force: true });
  }
}

/** A hidden file in the same folder, for one check (an update is written by writeWhole). */
function siblingPath(file: string): string {
  return join(dirname(file), `.${basename(file, '.mjs')}.${randomBytes(4).toString('hex')}.flowguard.mjs`);
}
