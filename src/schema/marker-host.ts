// A `--marker--` label in `root` (R5) and a `${...}` label in an https origin written in a file
// (R12) each stand for one DNS label that a handler fills in: `mainnet` in
// `--chain--.rpc.example.com`, never the domain itself. One rule for both, decided by the public
// suffix list with its private section (anyone may own a name under `github.io`).

import { tldts } from '../shared/deps.js';

/** A label no real domain uses, standing in for a marker or `${...}` label wherever a host must be read. */
export const STAND_IN_LABEL = 'flowguard-marker';

/**
 * Why a host whose fill-in labels are written as STAND_IN_LABEL does not fix its registrable
 * domain, or null when it does.
 */
export function openHost(
  hostname: string,
): 'made of fill-in labels' | 'fill-in labels make up its registrable domain' | null {
  const domain = tldts().getDomain(hostname, { allowPrivateDomains: true });
  if (domain === null) return 'made of fill-in labels';
  return domain.includes(STAND_IN_LABEL) ? 'fill-in labels make up its registrable domain' : null;
}
