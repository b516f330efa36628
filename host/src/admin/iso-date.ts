const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-](\d{2}):(\d{2})))?$/;

/**
 * Reads a strict ISO 8601 date (`2026-12-31`, midnight UTC) or date-time with its offset (`2026-12-31T18:00:00Z`,
 * `2026-12-31T18:00-05:00`) and returns it normalised to UTC (`toISOString`). Anything else is `undefined`:
 * words (`tomorrow`), impossible calendar dates (`2026-02-30`, `2026-13-45`), and date-times without an offset,
 * whose instant would depend on the server's time zone. `Date.parse` alone accepts all of those.
 */
export function parseIsoDate(text: string): string | undefined {
  const m = ISO_8601.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour = 0, minute = 0, second = 0] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((v) =>
    v === undefined ? undefined : Number(v),
  );
  if (month! < 1 || month! > 12 || day! < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  // Day 0 of the next month is the last day of this one: the real length of the month, leap years included.
  if (day! > new Date(Date.UTC(year!, month!, 0)).getUTCDate()) return undefined;
  if (m[9] !== undefined && (Number(m[9]) > 23 || Number(m[10]) > 59)) return undefined;
  const instant = Date.parse(text);
  return Number.isNaN(instant) ? undefined : new Date(instant).toISOString();
}
