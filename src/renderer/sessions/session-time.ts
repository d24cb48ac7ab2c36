// Formatters are made once: building one per row costs more than rendering the row.
const TIME = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const WEEKDAY = new Intl.DateTimeFormat(undefined, { weekday: 'short' });
const DAY = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });

/** When a conversation was last written to, short: the time today, the weekday this week, else the date. */
export function sessionTime(ms: number, now: number): string {
  const startOfToday = new Date(now).setHours(0, 0, 0, 0);
  if (ms >= startOfToday) return TIME.format(ms);
  if (now - ms < 7 * 86_400_000) return WEEKDAY.format(ms);
  return DAY.format(ms);
}
