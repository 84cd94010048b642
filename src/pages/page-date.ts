// A page's `date` (docs/content-model.md, "Dates and scheduled publishing"): the publication date,
// written as ISO 8601 with an offset or `Z`, stored to the second in UTC as every `*_gmt` column
// is (`YYYY-MM-DD HH:MM:SS`, pages.date_gmt), answered as ISO 8601 in UTC (`…Z`).
import { fail } from "../errors.ts";

/** `2025-03-01T09:30:00+01:00`, `2025-03-01T08:30Z`, fractions of a second allowed (and dropped). */
const ISO_WITH_OFFSET =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))$/;

function wrongDate(value: unknown): never {
  throw fail(
    "invalid_field",
    {
      field: "date",
      expected: "an ISO 8601 date and time with an offset or Z (2025-03-01T09:30:00+01:00)",
      date: value,
    },
    "date must be an ISO 8601 date and time with an offset or Z, such as 2025-03-01T09:30:00+01:00.",
  );
}

/**
 * A body's `date` as it is stored: `YYYY-MM-DD HH:MM:SS` in UTC; null clears it; undefined when
 * absent. A time without an offset is refused: the service has no time zone to read it in.
 */
export function dateFrom(value: unknown): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  if (typeof value !== "string") wrongDate(value);
  const match = ISO_WITH_OFFSET.exec(value.trim());
  if (!match) wrongDate(value);
  const [, year, month, day, hour, minute, second = "00", zulu, sign, offsetHours, offsetMinutes] = match;
  const fields = [year, month, day, hour, minute, second].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const [y, mo, d, h, mi, s] = fields;
  // setUTCFullYear, not Date.UTC, which reads the years 0–99 as 1900–1999.
  const calendar = new Date(0);
  calendar.setUTCFullYear(y, mo - 1, d);
  calendar.setUTCHours(h, mi, s, 0);
  const local = calendar.getTime();
  // 30 February rolls over into March: a date that moved was not a date.
  if (calendar.getUTCDate() !== d || calendar.getUTCMonth() !== mo - 1 || h > 23 || mi > 59 || s > 59) wrongDate(value);
  const offset = zulu ? 0 : (sign === "-" ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes));
  if (Math.abs(offset) > 18 * 60) wrongDate(value);
  const utc = new Date(local - offset * 60_000);
  if (utc.getUTCFullYear() < 1 || utc.getUTCFullYear() > 9999) wrongDate(value);
  return utc.toISOString().slice(0, 19).replace("T", " ");
}

/** A stored date as the API answers it: `YYYY-MM-DDTHH:MM:SSZ`; null stays null. */
export function isoDateOf(dateGmt: string | null): string | null {
  return dateGmt === null ? null : `${dateGmt.replace(" ", "T")}Z`;
}
