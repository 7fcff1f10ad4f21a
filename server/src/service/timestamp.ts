/** ISO 8601 extended date-time: date, `T`, time to minutes or finer, optional zone. */
const ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d{1,9})?)?(Z|[+-](\d{2}):?(\d{2}))?$/;

export function isIsoDateTime(s: string): boolean {
  const m = ISO.exec(s);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0));
  const days = [31, year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  const zoneOk = m[7] === undefined || m[7] === 'Z' || (Number(m[8]) <= 23 && Number(m[9]) <= 59);
  return month >= 1 && month <= 12 && day >= 1 && day <= days[month - 1] && hour <= 23 && minute <= 59 && second <= 60 && zoneOk;
}

/** Now, in the form the service's samples use: UTC to the second. */
export function nowTimestamp(date = new Date()): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
