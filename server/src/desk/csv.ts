import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';

/**
 * A CSV download as a stream: rows are produced (a batch of SQL at a time) only as fast as the
 * download takes them (the stream's backpressure), so an export of any size takes the same
 * memory. Cells that a spreadsheet would run as a formula (starting with = + - @, a tab or a
 * carriage return, or their full-width forms) get a leading apostrophe: csv-stringify's
 * `escape_formulas`.
 */
export function streamCsv<Row extends Record<string, string | number>>(
  columns: readonly (keyof Row & string)[],
  rows: AsyncIterable<Row>,
): Readable {
  const csv = stringify({
    header: true,
    columns: columns.map((key) => ({ key, header: key })),
    escape_formulas: true,
  });
  // A download that stops (the browser went away) ends the reading too, and a failed query ends
  // the download (cut short: the header went out long before).
  pipeline(Readable.from(rows), csv, () => {});
  return csv;
}
