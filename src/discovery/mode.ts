// Which listing `serve` gives: every tool (`all`), or discovery mode's meta-tools (`search`). By
// default (`auto`) a catalog above SEARCH_ABOVE served tools is searched: past about a hundred
// tools a listing costs tens of thousands of tokens and several clients cap the tools they take
// (Cursor 40, OpenAI 128); below it, every tool listed costs an agent less than a search would.

import type { ToolsSetting } from '../config/project.js';
import type { DiscoveryMode } from './served.js';
import { META_TOOLS } from './meta-tools.js';
import { CONFIG_DEFAULTS } from '../config/defaults.js';
import { plural } from '../shared/plural.js';

const SEARCH_ABOVE: number = CONFIG_DEFAULTS.discovery.searchAbove;

export interface ChosenMode {
  mode: DiscoveryMode;
  /** For the serve summary: the mode, and why. */
  line: string;
}

export function chooseMode(
  setting: ToolsSetting,
  served: number,
  alwaysLoad: number,
  searchAbove = SEARCH_ABOVE,
): ChosenMode {
  const mode: DiscoveryMode = setting === 'auto' ? (served > searchAbove ? 'search' : 'all') : setting;
  const why =
    setting === 'auto'
      ? `auto: ${plural(served, 'tool')} served, ${served > searchAbove ? 'more than' : 'at most'} ${searchAbove}`
      : `--tools ${setting}`;
  const line =
    mode === 'search'
      ? `flowguard: discovery mode (${why}): tools/list shows ${META_TOOLS.map((tool) => tool.name).join(', ')}` +
        (alwaysLoad > 0 ? ` and ${alwaysLoad} alwaysLoad tools` : '') +
        '; every served tool is found through search_tools (--tools all lists them all)'
      : `flowguard: every served tool listed (${why}${setting === 'auto' ? '; --tools search lists only the discovery meta-tools' : ''})`;
  return { mode, line };
}
