// Postings as bytes, for the index cache: a JSON header (the counts, the averages, each array's
// type and length), then the arrays back to back, then the vocabulary text. Reading checks that
// every length agrees with the counts and every start array climbs inside what it indexes, so a
// cut, damaged or foreign file is refused rather than read.

import type { Postings } from './postings.js';

type ArrayName =
  | 'termStart'
  | 'fieldStart'
  | 'documents'
  | 'frequencies'
  | 'documentFrequency'
  | 'fieldLength'
  | 'byLength'
  | 'lengthStart';
const ARRAYS: readonly ArrayName[] = [
  'termStart',
  'fieldStart',
  'documents',
  'frequencies',
  'documentFrequency',
  'fieldLength',
  'byLength',
  'lengthStart',
];
const TYPES = { Uint8Array, Uint16Array, Uint32Array } as const;
type TypeName = keyof typeof TYPES;

interface Header {
  documentCount: number;
  fieldCount: number;
  averageFieldLength: number[];
  arrays: { name: ArrayName; type: TypeName; length: number }[];
  textBytes: number;
}

export function encodePostings(postings: Postings): Buffer {
  const text = Buffer.from(postings.text, 'utf8');
  const header: Header = {
    documentCount: postings.documentCount,
    fieldCount: postings.fieldCount,
    averageFieldLength: [...postings.averageFieldLength],
    arrays: ARRAYS.map((name) => ({
      name,
      type: postings[name].constructor.name as TypeName,
      length: postings[name].length,
    })),
    textBytes: text.length,
  };
  const head = Buffer.from(JSON.stringify(header), 'utf8');
  const size = Buffer.alloc(4);
  size.writeUInt32LE(head.length);
  return Buffer.concat([
    size,
    head,
    ...ARRAYS.map((name) => Buffer.from(postings[name].buffer, postings[name].byteOffset, postings[name].byteLength)),
    text,
  ]);
}

/** The postings in `bytes`, or null when they are not a whole file of this format. */
export function decodePostings(bytes: Buffer): Postings | null {
  try {
    const headLength = bytes.readUInt32LE(0);
    const header = JSON.parse(bytes.subarray(4, 4 + headLength).toString('utf8')) as Header;
    if (!countsFit(header)) return null;
    let at = 4 + headLength;
    const arrays = new Map<ArrayName, Uint8Array | Uint16Array | Uint32Array>();
    for (const { name, type, length } of header.arrays) {
      const Type = TYPES[type];
      if (!Type || !ARRAYS.includes(name) || !Number.isSafeInteger(length) || length < 0) return null;
      const byteLength = length * Type.BYTES_PER_ELEMENT;
      if (at + byteLength > bytes.length) return null;
      // A copy: the file's buffer need not be aligned for the type.
      const array = new Type(length);
      new Uint8Array(array.buffer).set(bytes.subarray(at, at + byteLength));
      arrays.set(name, array);
      at += byteLength;
    }
    if (at + header.textBytes !== bytes.length) return null;
    const postings = {
      documentCount: header.documentCount,
      fieldCount: header.fieldCount,
      averageFieldLength: Float64Array.from(header.averageFieldLength),
      text: bytes.subarray(at).toString('utf8'),
      ...Object.fromEntries(arrays),
    } as Postings;
    return consistent(postings) ? postings : null;
  } catch {
    return null;
  }
}

/** At most this many fields per document: the index has a handful (name, description, parameters...). */
const MAX_FIELDS = 64;

/**
 * Whether the header's numbers are what a build writes: whole counts, and an average length per
 * field that is a finite number (a NaN or negative average turned every score of its field into
 * NaN or a negative number, and an array-like `{ length: 1e8 }` was copied entry by entry).
 */
function countsFit(header: Header): boolean {
  const { documentCount, fieldCount, averageFieldLength } = header;
  if (!Number.isSafeInteger(documentCount) || documentCount < 0) return false;
  if (!Number.isSafeInteger(fieldCount) || fieldCount < 1 || fieldCount > MAX_FIELDS) return false;
  if (!Array.isArray(averageFieldLength) || averageFieldLength.length !== fieldCount) return false;
  return averageFieldLength.every((average) => typeof average === 'number' && Number.isFinite(average) && average >= 0);
}

/** Whether the arrays fit each other: every range they give stays inside what it indexes. */
function consistent(p: Postings): boolean {
  const terms = p.termStart?.length - 1;
  if (!(terms >= 0) || p.averageFieldLength.length !== p.fieldCount || p.fieldCount < 1) return false;
  if (p.termStart[terms] !== p.text.length || p.fieldStart?.length !== terms * p.fieldCount + 1) return false;
  if (p.fieldStart[terms * p.fieldCount] !== p.documents?.length || p.frequencies?.length !== p.documents.length)
    return false;
  if (
    p.documentFrequency?.length !== terms ||
    p.fieldLength?.length !== p.documentCount * p.fieldCount ||
    p.byLength?.length !== terms
  )
    return false;
  if (p.lengthStart?.[p.lengthStart.length - 1] !== terms) return false;
  // Every range a start array gives lies inside what it indexes only when it climbs from 0 to its
  // last entry: one entry past that made a search walk billions of entries (and V8 end the process).
  if (!ascending(p.termStart) || !ascending(p.fieldStart) || !ascending(p.lengthStart)) return false;
  return (
    p.documents.every((document) => document < p.documentCount) &&
    p.byLength.every((term) => term < terms) &&
    p.documentFrequency.every((count) => count <= p.documentCount)
  );
}

/** Whether `starts` begins at 0 and never descends. */
function ascending(starts: Uint8Array | Uint16Array | Uint32Array): boolean {
  if (starts[0] !== 0) return false;
  for (let at = 1; at < starts.length; at += 1) if ((starts[at] as number) < (starts[at - 1] as number)) return false;
  return true;
}
