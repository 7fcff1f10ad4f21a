/** ISO 8601 extended date-time: date, `T`, time to minutes or finer, optional zone. */
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/;

/** Days of each month in a common year. */
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Runs on every check of every definition: once the shape is proven, fields are read by position. */
export function isIsoDateTime(s: string): boolean {
  if (!ISO.test(s)) return false;
  const year = digits(s, 0, 4);
  const month = digits(s, 5, 2);
  const day = digits(s, 8, 2);
  const leap = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const seconds = s.charCodeAt(16) === 0x3a ? digits(s, 17, 2) : 0;
  const zone = zoneOffset(s);
  return (
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= DAYS[month - 1] + (leap ? 1 : 0) &&
    digits(s, 11, 2) <= 23 &&
    digits(s, 14, 2) <= 59 &&
    seconds <= 60 &&
    zone
  );
}

/** The numeric zone (`±hhmm`, `±hh:mm`) is in range, or there is none or `Z`. */
function zoneOffset(s: string): boolean {
  const sign = Math.max(s.lastIndexOf('+'), s.lastIndexOf('-'));
  if (sign < 10) return true; // the date's own dashes
  return digits(s, sign + 1, 2) <= 23 && digits(s, s.length - 2, 2) <= 59;
}

function digits(s: string, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) v = v * 10 + s.charCodeAt(i) - 0x30;
  return v;
}

/** Now, in the form the service's samples use: UTC to the second. */
export function nowTimestamp(date = new Date()): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
