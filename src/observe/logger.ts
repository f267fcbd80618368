// Structured logs (pino): one JSON object a line, to stderr by default, because under stdio
// stdout carries the MCP protocol and nothing else. Components take a `Logger` in their options
// and default to `silentLogger`, so tests and embedding programs stay quiet unless they ask.
// Nothing here redacts: text reaches a logger only after `catalog.redact()` (R4).

import { pino, type DestinationStream, type Level, type Logger } from 'pino';
import { CONFIG_DEFAULTS } from '../config/defaults.js';
import { terminalJson } from '../shared/terminal-text.js';

export type { Logger } from 'pino';

/** The levels `--log-level` and `log.level` accept; `silent` turns logging off. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = Level | 'silent';
export const DEFAULT_LOG_LEVEL: LogLevel = CONFIG_DEFAULTS.log.level;

/**
 * Lines waiting for a slow stderr, in bytes, before new ones are dropped: a reader that stops
 * draining stderr must not stop the server nor grow it without bound.
 */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/**
 * Lines are written together every FLUSH_MS, or once FLUSH_BYTES wait: a write per line would
 * cost a call more than a tenth of its time (bench/observe.ts).
 */
const FLUSH_MS = 100;
const FLUSH_BYTES = 64 * 1024;

export interface LoggerOptions {
  level?: LogLevel;
  /** Where lines go; default stderr, in batches (BatchedLines) so that no call waits on it. */
  destination?: DestinationStream;
}

export function createLogger({ level = DEFAULT_LOG_LEVEL, destination }: LoggerOptions = {}): Logger {
  // Time as epoch milliseconds (pino's own form): an ISO text costs microseconds a line.
  // No pid or hostname on every line: one process writes its own stderr.
  return pino({ level, base: undefined }, destination ?? new BatchedLines(process.stderr));
}

/**
 * Collects lines and hands them to `target` together; past MAX_BUFFERED_BYTES (what waits here
 * and in the target's own buffer) lines are dropped and counted. Never blocks: a slow reader of
 * a pipe only fills the target's buffer.
 */
export class BatchedLines implements DestinationStream {
  private lines: string[] = [];
  private bytes = 0;
  private timer: NodeJS.Timeout | null = null;
  /** Lines dropped because the reader could not keep up. */
  dropped = 0;

  /** `target`: a stream, or anything that writes like one and calls `done` (the command line's run, cli/io.ts). */
  constructor(
    private readonly target: {
      write(text: string, done?: (error?: Error | null) => void): unknown;
      writableLength?: number;
    },
  ) {}

  write(line: string): void {
    if (this.bytes + line.length + (this.target.writableLength ?? 0) > MAX_BUFFERED_BYTES) {
      this.dropped += 1;
      return;
    }
    this.lines.push(line);
    this.bytes += line.length;
    if (this.bytes >= FLUSH_BYTES) this.flush();
    // Unref'd: waiting lines never keep the process alive; flushLogger writes them at the end.
    else this.timer ??= setTimeout(() => this.flush(), FLUSH_MS).unref();
  }

  /** Hands what waits to the target; `done` once the target has taken it. */
  flush(done?: (error?: Error) => void): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.lines.length === 0) return void done?.();
    // Read on terminals: JSON escapes C0 controls only, so the rest that acts on one (an 8-bit CSI,
    // bidi overrides, line separators, from a file's name or an upstream's answer) is escaped too.
    const text = terminalJson(this.lines.join(''));
    const count = this.lines.length;
    this.lines = [];
    this.bytes = 0;
    try {
      this.target.write(text, (error) => done?.(error ?? undefined));
    } catch (error) {
      // Runs on a timer: a target that throws (closed) loses these lines, never the process.
      this.dropped += count;
      done?.(error as Error);
    }
  }
}

/** A logger that writes nothing: the default of every component. */
export const silentLogger: Logger = pino({ level: 'silent' });

export function isLogLevel(text: string): text is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(text);
}

/** Writes what the logger holds before the process ends (lines wait up to FLUSH_MS to be written). */
export function flushLogger(logger: Logger): Promise<void> {
  return new Promise((resolve) => logger.flush(() => resolve()));
}
