/** A mistake in how a command was called (exit code 2), as opposed to a finding in a schema. */
export class UsageError extends Error {}
