// The schema's origin (decision R5): after preRequest, the request must still go to the scheme,
// host and port of `root`. A `--marker--` label in root stands for exactly one DNS label, which
// is how the corpus lets a handler choose a chain or region without choosing the host.

import { randomBytes } from 'node:crypto';
import type { Template } from '../schema/types.js';

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
/**
 * Stands in for a marker while the root is parsed as a URL. Random per process: a label the
 * schema writes out can never be taken for a marker (`https://flowguardlabel.com` would
 * otherwise stand for every `.com` host).
 */
const SENTINEL = `fgm${randomBytes(8).toString('hex')}n`;

export class OriginRule {
  private readonly protocol: string;
  private readonly port: string;
  /** The host as URL writes it, or a pattern where markers stand for labels. */
  private readonly host: string | RegExp;
  /** The origin as people read it, e.g. `https://--chain--.rpc.example.com`. */
  readonly display: string;

  constructor(root: Template) {
    // Markers and secret slots in the host each stand for one label: a sentinel keeps the
    // rest of the root parseable as a URL.
    let sentinels = 0;
    let display = '';
    const probe = root
      .map((part) => {
        if (part.kind === 'literal') {
          display += part.text;
          return part.text;
        }
        display += part.kind === 'marker' ? `--${part.name}--` : `{{${'key' in part ? part.key : ''}}}`;
        return `${SENTINEL}${sentinels++}`;
      })
      .join('');
    const url = new URL(probe);
    this.protocol = url.protocol;
    this.port = url.port;
    const labels = url.hostname.split('.');
    // Most hosts are written out: compared as text, they cost no pattern to build (a catalog builds one per origin).
    this.host = labels.some((label) => label.startsWith(SENTINEL))
      ? new RegExp(
          `^${labels.map((label) => (label.startsWith(SENTINEL) ? LABEL : label.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&'))).join('\\.')}$`,
          'i',
        )
      : url.hostname;
    this.display = `${url.protocol}//${display.replace(/^[a-z]+:\/\//i, '').split('/')[0] ?? ''}`;
  }

  /** Whether `url` stays on the origin; credentials in the URL are never allowed. */
  allows(url: string): boolean {
    return this.parse(url) !== null;
  }

  /** `url` parsed, when it stays on the origin; null when it does not. */
  parse(url: string): URL | null {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      // new URL throws only on a malformed URL: no origin, which the caller refuses.
      return null;
    }
    const allowed =
      parsed.protocol === this.protocol &&
      parsed.port === this.port &&
      !parsed.username &&
      !parsed.password &&
      (typeof this.host === 'string' ? this.host === parsed.hostname : this.host.test(parsed.hostname));
    return allowed ? parsed : null;
  }
}
