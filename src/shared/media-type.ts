// A Content-Type read one way everywhere (decision R9): the core's decoding and redaction
// (src/http/decode.ts) and a bridged answer's text() in the sandbox (src/sandbox/bridge-fetch.ts).
// Two readings of one header would let a handler read a charset the redactor never searched.

export interface MediaType {
  /** Lower-case `type/subtype`. */
  essence: string;
  /** Lower-case charset parameter (the first), if any. */
  charset: string | undefined;
}

/** Parses `type/subtype; charset=x`; undefined when it is no media type (then it declares no charset either). */
export function readMediaType(header: string): MediaType | undefined {
  const semi = header.indexOf(';');
  const essence = (semi === -1 ? header : header.slice(0, semi)).trim().toLowerCase();
  if (!/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(essence)) return undefined;
  let charset: string | undefined;
  if (semi !== -1) {
    const match = /(?:^|;)\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(header.slice(semi));
    const value = match?.[1] ?? match?.[2];
    if (value) charset = value.toLowerCase();
  }
  return Object.freeze({ essence, charset });
}
