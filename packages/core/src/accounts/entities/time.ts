/** Time formats of the JSON entities. */

/** ISO 8601 with milliseconds in UTC (`2024-05-01T12:00:00.000Z`), or null. */
export function iso(date: Date | null): string | null {
  return date === null ? null : date.toISOString();
}

/** `YYYY-MM-DD` of the UTC day, or null. */
export function isoDate(date: Date): string;
export function isoDate(date: Date | null): string | null;
export function isoDate(date: Date | null): string | null {
  return date === null ? null : date.toISOString().slice(0, 10);
}
