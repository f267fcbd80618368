// Where a key could end up once a case has run, read back for the leak check: the text of every
// tool result, the servers' log output, the audit files and everything else written under the
// project folder, the metrics text, and every key and value in Redis. Growing files and logs are
// read from where the last check stopped (less an overlap, for a key split across two reads).

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Redis } from 'ioredis';
import { keyFormsIn } from './keys.js';

/** Bytes read again before the last stopping point, so a key written across it is still whole. */
const OVERLAP = 512;

/** Reads each source from where its last read stopped. */
export class GrowingReads {
  private readonly seen = new Map<string, number>();

  /** The part of `text` (known as `name`) not yet checked, with the overlap. */
  text(name: string, text: string): string {
    const from = Math.max(0, (this.seen.get(name) ?? 0) - OVERLAP);
    this.seen.set(name, text.length);
    return text.slice(from);
  }

  /** The new part of a file; all of it when it shrank (rewritten or rotated). */
  file(path: string): Buffer {
    const bytes = readFileSync(path);
    const last = this.seen.get(path) ?? 0;
    this.seen.set(path, bytes.length);
    return bytes.length < last ? bytes : bytes.subarray(Math.max(0, last - OVERLAP));
  }
}

/** Audit records (lines) written so far by the server process `pid` (its files carry its pid in their names). */
export function auditRecords(dir: string, pid: number): number {
  const folder = join(dir, '.flowmcp', 'audit');
  let lines = 0;
  try {
    for (const name of readdirSync(folder)) {
      if (name.includes(`-${pid}-`)) lines += readFileSync(join(folder, name), 'latin1').split('\n').length - 1;
    }
  } catch {
    // No folder yet: no record.
  }
  return lines;
}

/** Every file below `dir` but `.env` (which holds the keys by design) and `node_modules`. */
function projectFiles(dir: string): string[] {
  const files: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(path);
      } else if (entry.isFile() && relative(dir, path) !== '.env') files.push(path);
    }
  };
  walk(dir);
  return files;
}

/** The forms of a key found in each file written under the project since the last read ('path: form'). */
export function leaksInFiles(dir: string, reads: GrowingReads): string[] {
  const found: string[] = [];
  for (const path of projectFiles(dir)) {
    try {
      if (!statSync(path).isFile()) continue;
      for (const form of keyFormsIn(reads.file(path))) found.push(`${relative(dir, path)}: ${form}`);
    } catch {
      // Removed between the listing and the read (a rotated audit file, a cache entry replaced).
    }
  }
  return found;
}

/**
 * The Redis keys holding a form of a key (in their name or value, whatever the type), each
 * reported once: it is deleted once found, so that one leaked cache entry fails its own case and
 * not every later one.
 */
export async function leaksInRedis(redis: Redis): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scanBuffer(cursor, 'COUNT', 1000);
    cursor = next.toString();
    for (const key of keys) {
      const forms = keyFormsIn(Buffer.concat([key, Buffer.from('\n'), ...(await valueOf(redis, key))]));
      if (forms.length === 0) continue;
      found.push(`${key.toString('utf8').slice(0, 120)}: ${forms[0]}`);
      await redis.del(key);
    }
  } while (cursor !== '0');
  return found;
}

/** A Redis key's value as bytes, whatever its type. */
async function valueOf(redis: Redis, key: Buffer): Promise<Buffer[]> {
  const out: Buffer[] = [];
  const type = await redis.type(key);
  if (type === 'string') out.push((await redis.getBuffer(key)) ?? Buffer.alloc(0));
  else if (type === 'hash')
    for (const [field, value] of Object.entries(await redis.hgetallBuffer(key))) out.push(Buffer.from(field), value);
  else if (type === 'list') out.push(...(await redis.lrangeBuffer(key, 0, -1)));
  else if (type === 'set') out.push(...(await redis.smembersBuffer(key)));
  else if (type === 'zset') out.push(...(await redis.zrangeBuffer(key, 0, -1)));
  else if (type !== 'none') out.push(Buffer.from(`(unread type ${type})`));
  return out;
}
