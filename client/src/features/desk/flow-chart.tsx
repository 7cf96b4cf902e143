import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import uplotCss from 'uplot/dist/uPlot.min.css?inline';

export interface FlowSeries {
  label: string;
  /** One value per period, at or above zero. */
  values: number[];
  color: string;
}

const HEIGHT = 220;

/**
 * Bars for what came in above the line and what went out below it, one pair per period (weeks or
 * months), drawn by uPlot (a small canvas charting library) at the width of its container, on a
 * phone too. The chart is a picture of the table that follows it on the page: screen readers read
 * the table, the chart carries a one-line summary.
 */
export function FlowChart({
  labels,
  gained,
  lost,
  summary,
  formatValue,
  wholeNumbers = false,
}: {
  labels: string[];
  gained: FlowSeries;
  lost: FlowSeries;
  summary: string;
  formatValue: (value: number) => string;
  /** Counts: the value axis steps by whole numbers only. */
  wholeNumbers?: boolean;
}) {
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const indices = labels.map((_, i) => i);
    const bars = uPlot.paths.bars?.({ size: [0.7, 48], align: 0 });
    // Labels ("Sep 14") need about 48 px each: on a narrow chart, show every second or third,
    // always the latest.
    const every = () => Math.max(1, Math.ceil((48 * labels.length) / (element.clientWidth - 80)));
    const plot = new uPlot(
      {
        width: element.clientWidth,
        height: HEIGHT,
        legend: { live: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: false, range: [-0.6, labels.length - 0.4] } },
        axes: [
          {
            splits: () => indices.filter((i) => (labels.length - 1 - i) % every() === 0),
            values: (_, splits) => splits.map((i) => labels[i] ?? ''),
            gap: 4,
            size: 36,
          },
          {
            values: (_, splits) => splits.map((value) => formatValue(Math.abs(value))),
            size: 64,
            ...(wholeNumbers && { incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000] }),
          },
        ],
        series: [
          {},
          {
            label: gained.label,
            fill: gained.color,
            stroke: gained.color,
            paths: bars,
            points: { show: false },
          },
          {
            label: lost.label,
            fill: lost.color,
            stroke: lost.color,
            paths: bars,
            points: { show: false },
          },
        ],
      },
      // A period with nothing draws no bar (a zero-height one would still leave a line).
      [
        indices,
        gained.values.map((value) => value || null),
        lost.values.map((value) => (value ? -value : null)),
      ],
      element,
    );
    const resize = new ResizeObserver(() =>
      plot.setSize({ width: element.clientWidth, height: HEIGHT }),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [labels, gained, lost, formatValue, wholeNumbers]);

  return (
    <figure className="desk-chart">
      <style>{uplotCss}</style>
      <div ref={container} role="img" aria-label={summary} />
      <figcaption className="visually-hidden">{summary}</figcaption>
    </figure>
  );
}
