// `.flowmcp/config.json` read as findings (CFG001-CFG003), each with its line and column and, for
// a misspelt key or setting, the likely meaning, as groups.json and schema findings are. The
// config is the operator's trusted input: any of them stops the command (ConfigError, ERR002).

import { readFileSync } from 'node:fs';
import { FlowguardError } from '../errors/flowguard-error.js';
import { FindingSink, type Finding } from '../report/findings.js';
import { formatFinding } from '../report/format.js';
import { jsonErrorOffset, locateJson } from '../report/json-locate.js';
import { shapeProblems, type MessageDefaults } from '../shapes/problems.js';
import { validateConfig } from './config-shape.generated.js';

/** The config cannot be used; `findings` say where and why, the message lists them. */
export class ConfigError extends FlowguardError {
  constructor(
    readonly file: string,
    readonly findings: readonly Finding[],
  ) {
    super('ERR002', `${file} cannot be used:\n${findings.map(findingLines).join('\n')}`);
  }
}

export interface ConfigReading {
  /** The parsed JSON; `{}` when the file is missing, undefined when it cannot be read or parsed. */
  data: unknown;
  findings: Finding[];
}

/** Ajv's own words after the key, an unknown key by name (its path names where it is). */
const CONFIG_MESSAGES: MessageDefaults = {
  additionalProperties: "unknown key '{key}'",
  enum: 'must be one of {allowed}',
  '*': '{detail}',
};
/** The deepest keys a finding names: `upstreamLimits.origins.<origin>.burst`. */
const MAX_LOCATED_DEPTH = 4;

/** Reads and checks `file`; a missing file is an empty config. */
export function readConfigFile(file: string): ConfigReading {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { data: {}, findings: [] };
    const sink = new FindingSink(file);
    sink.add('CFG001', undefined, `cannot be read (${(error as Error).message})`);
    return { data: undefined, findings: sink.findings };
  }
  return parseConfigText(file, text);
}

function parseConfigText(file: string, text: string): ConfigReading {
  const sink = new FindingSink(file, text);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    sink.addAt(
      'CFG001',
      jsonErrorOffset(error, text),
      `not valid JSON (${(error as Error).message})`,
      'config.json is plain JSON: no comments, no trailing commas',
    );
    return { data: undefined, findings: sink.findings };
  }
  const located = locateJson(text, MAX_LOCATED_DEPTH);
  sink.useLocator((path) => nearestOffset(located.offsets, path));
  for (const problem of shapeProblems(validateConfig, data, {
    root: '',
    messages: CONFIG_MESSAGES,
    suggestValues: true,
  })) {
    const message = problem.path === undefined ? `the config ${problem.message}` : problem.message;
    sink.add(problem.keyword === 'additionalProperties' ? 'CFG002' : 'CFG003', problem.path, message, problem.hint);
  }
  return { data, findings: sink.findings };
}

/** The offset of `path`, else of its nearest located ancestor (a value deeper than the locator went). */
function nearestOffset(offsets: ReadonlyMap<string, number>, path: string): number | undefined {
  for (let at = path; at !== ''; at = at.replace(/(\.[^.[]*|\[[^\]]*\])$/, '')) {
    const offset = offsets.get(at);
    if (offset !== undefined) return offset;
    if (!/[.[]/.test(at)) break;
  }
  return undefined;
}

function findingLines(finding: Finding): string {
  return `  ${formatFinding(finding)}${finding.hint ? `\n    hint: ${finding.hint}` : ''}`;
}
