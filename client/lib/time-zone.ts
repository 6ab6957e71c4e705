// The viewer's time zone, apart from format.ts: the route tree (in the entry chunk) asks for the pages'
// data with it.

let zone: string | undefined;

/** The viewer's IANA zone (sent as `tz`): the server counts days and hours in it. */
export function viewerTimeZone(): string {
  if (zone === undefined) {
    try {
      zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
    } catch {
      zone = 'UTC';
    }
  }
  return zone;
}
