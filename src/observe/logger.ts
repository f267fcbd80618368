// Structured logs (pino): one JSON object a line, to stderr by default, because under stdio
// stdout carries the MCP protocol and nothing else. Components take a `Logger` in their options
// and default to `silentLogger`, so tests and embedding programs stay quiet unless they ask.
// Nothing here redacts: text reaches a logger only after `catalog.redact()` (R4).

import { pino, type DestinationStream, type Level, type Logger } from 'pino';

export type { Logger } from 'pino';

/** The levels `--log-level` and `log.level` accept; `silent` turns logging off. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = Level | 'silent';
export const DEFAULT_LOG_LEVEL: LogLevel = 'info';

/**
 * Lines waiting for a slow stderr, in bytes, before new ones are dropped: a reader that stops
 * draining stderr must not stop the server nor grow it without bound.
 */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

export interface LoggerOptions {
  level?: LogLevel;
  /** Where lines go; default stderr, written asynchronously so that no call waits on it. */
  destination?: DestinationStream;
}

export function createLogger({ level = DEFAULT_LOG_LEVEL, destination }: LoggerOptions = {}): Logger {
  const stream = destination ?? pino.destination({ dest: 2, sync: false, maxLength: MAX_BUFFERED_BYTES });
  // No pid or hostname on every line: one process writes its own stderr.
  return pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime }, stream);
}

/** A logger that writes nothing: the default of every component. */
export const silentLogger: Logger = pino({ level: 'silent' });

export function isLogLevel(text: string): text is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(text);
}

/** Writes what the logger holds before the process ends (an asynchronous stderr keeps lines for a moment). */
export function flushLogger(logger: Logger): Promise<void> {
  return new Promise((resolve) => logger.flush(() => resolve()));
}
