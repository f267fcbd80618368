// The commands flowguard prints for an operator to copy (`npm install ...`, `flowguard keys accept
// ...`, `flowguard group create ...`) name paths and keys that may hold spaces or quotes.

/** A word as a POSIX shell reads it back: as it is when plain, else in single quotes. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
