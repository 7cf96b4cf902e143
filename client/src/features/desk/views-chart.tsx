import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import uplotCss from 'uplot/dist/uPlot.min.css?inline';
import type { AnalyticsDay } from '../../../../contract/analytics';
import { formatWeek } from './desk-format';

const HEIGHT = 240;
const VIEWS = '#1f4fd1';
const VISITORS = '#0f6b52';

/**
 * Views and visitors by day as two lines, drawn by uPlot (as the dashboard's charts are) at the
 * width of its container, on a phone too. The chart is a picture: its summary is its accessible
 * name, and the page gives screen readers the same figures as a table.
 */
export function ViewsChart({ days, summary }: { days: AnalyticsDay[]; summary: string }) {
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const labels = days.map((day) => formatWeek(day.date));
    const indices = labels.map((_, i) => i);
    // A label ("Sep 14") needs about 56 px: on a narrow chart or a long range, every nth, the
    // latest always shown.
    const every = () => Math.max(1, Math.ceil((56 * labels.length) / (element.clientWidth - 80)));
    const line = (label: string, color: string) => ({
      label,
      stroke: color,
      width: 2,
      points: { show: days.length <= 31, size: 5, fill: color },
    });
    const plot = new uPlot(
      {
        width: element.clientWidth,
        height: HEIGHT,
        legend: { live: false },
        cursor: { drag: { x: false, y: false } },
        scales: {
          x: { time: false, range: [-0.5, Math.max(labels.length - 0.5, 0.5)] },
          y: { range: (_, __, max) => [0, Math.max(max, 4) * 1.1] },
        },
        axes: [
          {
            splits: () => indices.filter((i) => (labels.length - 1 - i) % every() === 0),
            values: (_, splits) => splits.map((i) => labels[i] ?? ''),
            gap: 4,
            size: 36,
          },
          {
            values: (_, splits) => splits.map((value) => value.toLocaleString('en-US')),
            size: 56,
            incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000],
          },
        ],
        series: [{}, line('Views', VIEWS), line('Visitors', VISITORS)],
      },
      [indices, days.map((day) => day.views), days.map((day) => day.visitors)],
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
  }, [days]);

  return (
    <figure className="desk-chart">
      <style>{uplotCss}</style>
      <div ref={container} role="img" aria-label={summary} />
      <figcaption className="visually-hidden">{summary}</figcaption>
    </figure>
  );
}
