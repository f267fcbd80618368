// The project builder as test/catalog and test/mcp still call it (those rooms are being moved);
// everything else uses test/kit/project.ts directly.

import { tempProject as kitProject, type TempProject } from '../kit/project.js';

/** A temp project whose `.flowmcp/config.json` is `config` (none when omitted). */
export function tempProject(config?: unknown): TempProject {
  return kitProject({ config });
}
