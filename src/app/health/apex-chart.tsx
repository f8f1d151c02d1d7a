import type ApexCharts from 'apexcharts';
import { useEffect, useRef } from 'react';

export type ApexOptions = ApexCharts.ApexOptions;

/**
 * ApexCharts draws with SVG layout (getBBox); where there is none (jsdom) the chart is left out and the
 * figure's label still says what it shows.
 */
function canDrawCharts(): boolean {
  return typeof SVGGraphicsElement !== 'undefined' && 'getBBox' in SVGGraphicsElement.prototype;
}

/**
 * An ApexCharts chart, the library fetched on first use (a dynamic import, so it stays out of the first
 * download: scripts/bundle-budget.ts). The element is an image named by `label`; pass memoised `options`, each
 * new object draws the chart again.
 */
export function ApexChart({ options, label, height }: { options: ApexOptions; label: string; height: number }) {
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = ref.current;
    if (!element || !canDrawCharts()) return;
    let chart: ApexCharts | null = null;
    let gone = false;
    void import('apexcharts')
      .then(({ default: Chart }) => {
        if (gone) return;
        chart = new Chart(element, options);
        return chart.render();
      })
      // A chart that cannot load (offline before it was ever fetched) leaves the labelled space empty.
      .catch(() => undefined);
    return () => {
      gone = true;
      chart?.destroy();
    };
  }, [options]);

  return <div ref={ref} role="img" aria-label={label} style={{ minHeight: height }} />;
}
