import type { Report } from './report-data.js';

/**
 * The report as one JSON object, written piece by piece: the figures first, then (Scan Activity)
 * the `scans` array a page at a time. Times are ISO 8601 UTC, with `localTime` beside each scan.
 */
export async function* jsonReport(report: Report): AsyncGenerator<string> {
  const head = {
    report: report.title,
    type: report.type,
    from: report.from,
    to: report.to,
    tz: report.tz,
    excludeBots: report.excludeBots,
    generatedAt: report.generatedAt,
    summary: report.summary,
    daily: report.daily,
    devices: report.devices,
    locations: report.locations,
    hourly: report.hourly,
    performance: report.performance,
  };
  const text = JSON.stringify(head);
  if (report.type !== 'activity') {
    yield text;
    return;
  }
  yield `${text.slice(0, -1)},"scans":[`;
  let first = true;
  for await (const page of report.scans()) {
    const items = page.map((s) => JSON.stringify(s)).join(',');
    yield first ? items : `,${items}`;
    first = false;
  }
  yield ']}';
}
