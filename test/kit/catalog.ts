// A catalog loaded from a temporary project, as the tests of calls through the real pipeline and
// sandbox need one: the project written as test/kit/project.ts writes it (schema files, config),
// loaded with no environment (keys come only from what the test gives), and closed in one step,
// the catalog first (its calls settle, its sandbox processes end), then the folder.

import { Catalog } from '../../src/runtime/catalog.js';
import type { CatalogOptions } from '../../src/runtime/catalog-options.js';
import { tempProject, type ProjectSpec, type TempProject } from './project.js';

export interface ProjectCatalog {
  project: TempProject;
  catalog: Catalog;
  /** Closes the catalog, then removes the project. */
  close(): Promise<void>;
}

/** Writes the project `spec` describes and loads its schemas folder with `options` (an empty environment unless they give one). */
export async function loadProjectCatalog(
  spec: ProjectSpec,
  options: Partial<CatalogOptions> = {},
): Promise<ProjectCatalog> {
  const project = tempProject(spec);
  let catalog: Catalog;
  try {
    catalog = await Catalog.load({ schemas: project.schemas, project: project.dir, env: {}, ...options });
  } catch (error) {
    project.remove();
    throw error;
  }
  return {
    project,
    catalog,
    async close() {
      try {
        await catalog.close();
      } finally {
        project.remove();
      }
    },
  };
}
