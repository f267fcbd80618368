// The operator's project configuration, `.flowmcp/config.json`. It is trusted input, so a
// malformed file is a usage error that stops the command with a clear message.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isExactPackageName } from '../libraries/allowlist.js';
import { isRecord } from '../raw.js';

export interface ProjectConfig {
  allowedLibraries: string[];
}

export class ConfigError extends Error {}

export function loadProjectConfig(projectDir: string): ProjectConfig {
  const file = join(projectDir, '.flowmcp', 'config.json');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { allowedLibraries: [] };
    throw new ConfigError(`${file}: cannot be read (${(error as Error).message})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${file}: not valid JSON (${(error as Error).message})`);
  }
  return { allowedLibraries: readAllowedLibraries(data, file) };
}

function readAllowedLibraries(data: unknown, file: string): string[] {
  const security = isRecord(data) ? data.security : undefined;
  if (security === undefined) return [];
  const list = isRecord(security) ? security.allowedLibraries : null;
  if (list === undefined) return [];
  if (!Array.isArray(list) || !list.every((name) => typeof name === 'string' && isExactPackageName(name))) {
    throw new ConfigError(`${file}: security.allowedLibraries must be an array of exact package names (no subpaths, versions or '..')`);
  }
  return list as string[];
}
