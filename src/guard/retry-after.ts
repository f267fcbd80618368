// Reading a Retry-After header (RFC 9110 §10.2.3): `delay-seconds` (1*DIGIT) or an HTTP-date in
// one of its three forms (§5.6.7): IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`, the obsolete
// RFC 850 form `Sunday, 06-Nov-94 08:49:37 GMT` and asctime's `Sun Nov  6 08:49:37 1994`.
// Nothing else is read: Date.parse would take `-1`, `1.5` or `+5` for dates in 2001 (no pause at
// all), so any other text is unreadable and the guard applies its documented 1 s instead.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const LONG_DAY = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const MONTH = `(${MONTHS.join('|')})`;
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';

/** Each form's pattern; groups: day, month, year, then hour, minute, second (asctime: month, day, the time, year). */
const IMF_FIXDATE = new RegExp(`^${DAY}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
const RFC_850 = new RegExp(`^${LONG_DAY}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`);
const ASCTIME = new RegExp(`^${DAY} ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`);

/** When a Retry-After header says to come back, as epoch ms; null when it is absent or not one of the forms above. */
export function retryAfterUntil(header: string | undefined, nowMs: number): number | null {
  if (header === undefined) return null;
  // A field value loses its surrounding whitespace (RFC 9110 §5.5); nothing else is forgiven.
  const text = header.replace(/^[ \t]+|[ \t]+$/g, '');
  if (/^\d+$/.test(text)) return nowMs + Number(text) * 1000;
  return httpDate(text, nowMs);
}

/** The epoch ms of an HTTP-date in any of its three forms; null when `text` is none, or names no real time. */
function httpDate(text: string, nowMs: number): number | null {
  let match = IMF_FIXDATE.exec(text);
  if (match) return utc(Number(match[3]), match[2] as string, Number(match[1]), match.slice(4, 7));
  match = RFC_850.exec(text);
  if (match) return utc(twoDigitYear(Number(match[3]), nowMs), match[2] as string, Number(match[1]), match.slice(4, 7));
  match = ASCTIME.exec(text);
  if (match) return utc(Number(match[6]), match[1] as string, Number((match[2] as string).trim()), match.slice(3, 6));
  return null;
}

/** RFC 9110 §5.6.7: a two-digit year that would be more than 50 years in the future is in the past century. */
function twoDigitYear(year: number, nowMs: number): number {
  const thisYear = new Date(nowMs).getUTCFullYear();
  const candidate = Math.floor(thisYear / 100) * 100 + year;
  return candidate > thisYear + 50 ? candidate - 100 : candidate;
}

/** The epoch ms of a date and time, or null when a field is out of range (Feb 30, hour 24, …). */
function utc(year: number, month: string, day: number, time: readonly (string | undefined)[]): number | null {
  const [hour, minute, second] = time.map(Number) as [number, number, number];
  const monthIndex = MONTHS.indexOf(month);
  // The grammar allows a leap second (60); it reads as the next second.
  if (hour > 23 || minute > 59 || second > 60) return null;
  const ms = Date.UTC(year, monthIndex, day, hour, minute, second);
  return new Date(Date.UTC(year, monthIndex, day)).getUTCDate() === day ? ms : null;
}
