// What `serve` says on stderr besides its calls, in the operator's format (`--log-format`,
// `log.format`). `text` (the default): the start-up summary and the connect instructions as lines
// for a person, the structured logs as JSON lines among them. `json`, for a log shipper: every line
// is one JSON object of the logger (pino's `level`, `time`, `msg`): the summary and the serving
// line become entries with their counts and URL, instructions for a person are left out, and
// nothing is said twice (a file not served, a route dropped and a key not granted are the logger's
// warn entries already, serve-observe.ts).

import type { Logger } from '../observe/logger.js';
import type { GroupEndpoint } from '../edge/endpoints.js';
import { servedCount } from './serve-groups.js';

export const LOG_FORMATS = ['text', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

type Level = 'info' | 'warn' | 'error';

export class ServeOutput {
  constructor(
    readonly format: LogFormat,
    private readonly write: (line: string) => void,
    private readonly logger: Logger,
  ) {}

  /** A line for a person (instructions, a finding under a heading): written in text, left out in JSON. */
  text(line: string): void {
    if (this.format === 'text') this.write(line);
  }

  /** What the log pipeline needs too: `line` in text, an entry of `level` with `msg` and `fields` in JSON. */
  say(line: string, level: Level, msg: string, fields: Record<string, unknown> = {}): void {
    if (this.format === 'text') this.write(line);
    else this.logger[level](fields, msg);
  }

  /** A line the server's parts write while it runs (an HTTP error, an internal failure): a warn entry in JSON. */
  readonly running = (line: string): void => {
    if (this.format === 'text') this.write(line);
    else this.logger.warn(line.replace(/^flowguard: /, ''));
  };

  /** The endpoints of groups and selections: the lines serve-groups.ts wrote in text, an entry each in JSON. */
  endpoints(lines: readonly string[], endpoints: readonly GroupEndpoint[], root: string): void {
    if (this.format === 'text') return lines.forEach((line) => this.write(line));
    for (const endpoint of endpoints) {
      const fields = { endpoint: `${root}/${endpoint.name}`, kind: endpoint.kind ?? 'group' };
      if ('serving' in endpoint)
        this.logger.info(
          { ...fields, tools: servedCount(endpoint.serving.tools ?? []).served, listing: endpoint.serving.discovery },
          'endpoint served',
        );
      else this.logger.warn({ ...fields, reason: endpoint.refused }, 'endpoint not served');
    }
  }
}
