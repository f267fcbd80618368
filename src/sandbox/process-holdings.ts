// What the current worker process holds: the units it has loaded and the libraries it has
// imported. A new process holds nothing. A job that needs nothing the process lacks can be sent
// at once, together with the jobs around it (worker-supervisor.ts); any other job first gets what
// it lacks, one request at a time.

import type { LibraryModule } from '../libraries/resolve.js';
import type { Job } from './job-queue.js';

export class ProcessHoldings {
  private readonly loaded = new Set<string>();
  private readonly imported = new Set<string>();

  hasLoaded(unit: string): boolean {
    return this.loaded.has(unit);
  }

  markLoaded(unit: string): void {
    this.loaded.add(unit);
  }

  /** The libraries of `libraries` this process has not imported yet. */
  missing(libraries: readonly LibraryModule[]): LibraryModule[] {
    return libraries.filter((library) => !this.imported.has(library.name));
  }

  markImported(libraries: readonly LibraryModule[]): void {
    for (const library of libraries) this.imported.add(library.name);
  }

  /** A load whose libraries this process has imported already: it needs nothing sent before it. */
  isReadyLoad({ command }: Job): boolean {
    return command.kind === 'load' && this.missing(command.unit.libraries).length === 0;
  }

  /** A call of a unit this process has loaded, without a bridge (`bridged`: an executeRequest call may be parked): it needs nothing sent before it. */
  isReadyCall({ command, spec }: Job, bridged: boolean): boolean {
    return (
      command.kind === 'call' &&
      spec !== undefined &&
      !bridged &&
      this.loaded.has(spec.id) &&
      this.missing(spec.libraries).length === 0
    );
  }
}
