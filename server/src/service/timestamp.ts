/** ISO 8601 extended date-time: date, `T`, time to minutes or finer, optional zone. */
const ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d{1,9})?)?(Z|[+-](\d{2}):?(\d{2}))?$/;

/** Days of each month in a common year. */
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

// Runs on every check of every smart tool: no intermediate arrays.
export function isIsoDateTime(s: string): boolean {
  const m = ISO.exec(s);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const leap = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const zoneOk = m[7] === undefined || m[7] === 'Z' || (Number(m[8]) <= 23 && Number(m[9]) <= 59);
  return (
    month >= 1 && month <= 12 && day >= 1 && day <= DAYS[month - 1] + (leap ? 1 : 0) &&
    Number(m[4]) <= 23 && Number(m[5]) <= 59 && (m[6] === undefined || Number(m[6]) <= 60) && zoneOk
  );
}

/** Now, in the form the service's samples use: UTC to the second. */
export function nowTimestamp(date = new Date()): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
