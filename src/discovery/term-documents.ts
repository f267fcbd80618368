// A schema file's tools as search terms, in the form the per-file cache (term-cache.ts) keeps:
// plain data (the file's terms once, then numbers), so that an index can be assembled from it
// with one dictionary lookup per distinct term of a file (postings.ts `intern`, `add`). Made by
// counting (term-counter.ts) and read back from the postings (postings.ts `termDocuments`).

/** One file's tools as terms. */
export interface TermDocuments {
  /** Every term of the file's tools, once each. */
  terms: string[];
  /** Per tool, per field: the field's distinct words, then (index into `terms`, how often) pairs. */
  tools: number[][][];
}

/** A tool's text per field, in pieces (documents.ts). */
export type PieceDocument = readonly (readonly string[])[];

/** Whether `value` (read from a cache file) is TermDocuments of `tools` tools with `fieldCount` fields each, every index in range. */
export function isTermDocuments(value: unknown, tools: number, fieldCount: number): value is TermDocuments {
  if (typeof value !== 'object' || value === null) return false;
  const { terms, tools: documents } = value as Partial<TermDocuments>;
  if (!Array.isArray(terms) || !terms.every((term) => typeof term === 'string' && term !== '')) return false;
  if (!Array.isArray(documents) || documents.length !== tools) return false;
  const count = (n: unknown, min: number, max: number) =>
    Number.isInteger(n) && (n as number) >= min && (n as number) < max;
  return documents.every(
    (fields) =>
      Array.isArray(fields) &&
      fields.length === fieldCount &&
      fields.every(
        (field) =>
          Array.isArray(field) &&
          field.length % 2 === 1 &&
          count(field[0], 0, 2 ** 31) &&
          field.every((n, at) => at === 0 || count(n, at % 2 === 1 ? 0 : 1, at % 2 === 1 ? terms.length : 2 ** 31)),
      ),
  );
}
