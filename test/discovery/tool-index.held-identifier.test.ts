// A request that holds an identifier (src/discovery/identifiers.ts `holdsIdentifier`) against a
// tool that takes none: on a fixture of two routes of clinical studies that say the same, the one
// taking a keyword first in its file (a tie keeps it first), the other a study's id; and two of
// proteins, the other taking an accession number.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { holdsIdentifier } from '../../src/discovery/identifiers.js';
import { useFixtureIndex } from './fixture-index.js';

const SCHEMAS = join(import.meta.dirname, '..', 'fixtures', 'discovery-identifiers-held', 'schemas');

describe('a request that holds an identifier', () => {
  const { top } = useFixtureIndex(SCHEMAS);

  it('is answered first by a tool that takes one', () => {
    expect(top('clinical study NCT04368728')[0]).toBe('trials_getStudies');
    expect(top('clinical study 0028-0836')[0]).toBe('trials_getStudies');
  });

  it('counts an accession number as an identifier a tool takes', () => {
    expect(top('protein P69905')[0]).toBe('proteins_getProteins');
    expect(top('haemoglobin protein')[0]).toBe('proteins_findProteins');
  });

  it('leaves the ranking alone with a name, a standard or a date', () => {
    expect(top('clinical studies on malaria')[0]).toBe('trials_findStudies');
    expect(top('clinical study ERC20')[0]).toBe('trials_findStudies');
    expect(top('clinical studies of 2024-01-01')[0]).toBe('trials_findStudies');
  });
});

describe('an identifier in a request', () => {
  it('has five digits among letters, twenty characters with a digit, or digits joined by - . /', () => {
    expect(holdsIdentifier('details of study NCT04368728')).toBe(true);
    expect(holdsIdentifier('uniprot (P69905) function')).toBe(true);
    expect(holdsIdentifier('how bad is CVE-2024-3094')).toBe(true);
    expect(holdsIdentifier('citations of 10.1038/nature14539')).toBe(true);
    expect(holdsIdentifier('tokens in 9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM')).toBe(true);
  });

  it('is not a number, a date or a standard’s name', () => {
    expect(holdsIdentifier('logs between blocks 19000000 and 19000500')).toBe(false);
    expect(holdsIdentifier('the block at midnight on 2024-01-01')).toBe(false);
    expect(holdsIdentifier('swap 1000.5 USDC')).toBe(false);
    expect(holdsIdentifier('ERC20 transfers of ERC721 tokens')).toBe(false);
  });
});
