// shellWord (src/shared/shell-word.ts): the words of the commands flowguard prints to be copied
// (npm install, keys accept, group create) read back by a POSIX shell as they were.

import { describe, expect, it } from 'vitest';
import { shellWord } from '../../src/shared/shell-word.js';

describe('shellWord', () => {
  it('leaves a plain path, key or package name as it is', () => {
    for (const word of ['schemas/github/repos.mjs', 'GITHUB_TOKEN', '@erc725/erc725.js', 'a+b=c,d:e%f'])
      expect(shellWord(word)).toBe(word);
  });

  it('single-quotes a word with a space, a $ or a quote, closing and reopening around a quote', () => {
    expect(shellWord('my schemas')).toBe("'my schemas'");
    expect(shellWord('$HOME')).toBe("'$HOME'");
    expect(shellWord("it's")).toBe("'it'\\''s'");
    expect(shellWord('')).toBe("''");
  });
});
