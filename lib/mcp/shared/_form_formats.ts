/**
 * The formats a string field of an elicitation form may name, each with its
 * test, for `elicitation_form.ts`.
 *
 * @module
 */

import { EMAIL, URI } from "../../formats/format_patterns.ts";

/**
 * The formats a string field may name, each with its test, as ajv-formats
 * (full mode) checks it, the course's tests holding each to its verdicts:
 * `email` and `uri` with its expressions (`lib/formats/format_patterns.ts`), `date` and
 * `date-time` written here. The course's servers run with no npm package, so
 * ajv-formats itself is not imported.
 */
export const FORMATS: Record<string, (text: string) => boolean> = {
  email: matching(EMAIL),
  uri: matching(URI),
  date: (text) => isDate(text),
  "date-time": (text) => {
    const parts = text.split(/t|\s/i);
    return parts.length === 2 && isDate(parts[0]) && isTime(parts[1]);
  },
};

/** RFC 3339's full-date, a day the month has. */
function isDate(text: string): boolean {
  const match = /^(\d{4})-(\d\d)-(\d\d)$/.exec(text);
  if (match === null) return false;
  const [year, month, day] = match.slice(1).map(Number);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return days !== undefined && day >= 1 && day <= days;
}

/** RFC 3339's full-time, with its offset; a leap second only at 23:59 UTC. */
function isTime(text: string): boolean {
  const match = /^(\d\d):(\d\d):(\d\d(?:\.\d+)?)(z|([+-])(\d\d)(?::?(\d\d))?)$/i.exec(text);
  if (match === null) return false;
  const [hour, minute, second] = match.slice(1, 4).map(Number);
  const sign = match[5] === "-" ? -1 : 1;
  const [offsetHours, offsetMinutes] = [Number(match[6] ?? 0), Number(match[7] ?? 0)];
  if (offsetHours > 23 || offsetMinutes > 59) return false;
  if (hour <= 23 && minute <= 59 && second < 60) return true;
  const utcMinute = minute - offsetMinutes * sign;
  const utcHour = hour - offsetHours * sign - (utcMinute < 0 ? 1 : 0);
  return [23, -1].includes(utcHour) && [59, -1].includes(utcMinute) && second < 61;
}

/** A test of the whole text against the expression `pattern`, ignoring case. */
function matching(pattern: string): (text: string) => boolean {
  const expression = new RegExp(`^(?:${pattern})$`, "i");
  return (text) => expression.test(text);
}
