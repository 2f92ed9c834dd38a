// The trend partial's data (templates/trend.hbs): the families of reports/trend/trend-view-model.ts
// with the inline SVG chart laid out (bars per version: passed, failed, false successes) and
// every user-supplied string sanitized. Handlebars escapes all of it again.
import { sanitizeText } from '../redaction/index.js';
import { buildTrendFamilies, type TrendChange, type TrendFamily, type TrendSourceCell } from './trend-view-model.js';

const BAR = 7;
const GAP = 8;
const PLOT_HEIGHT = 110;
const TOP = 8;
const LABEL_ROOM = 56;
const LEFT = 34;

const SERIES = [
  { key: 'passed', word: 'passed' },
  { key: 'failed', word: 'failed' },
  { key: 'falseSuccesses', word: 'false successes' },
] as const;

const CHANGE_STYLE: Record<TrendChange, { symbol: string; word: string }> = {
  fix: { symbol: '▲', word: 'fixed' },
  regression: { symbol: '▼', word: 'regressed' },
  changed: { symbol: '◆', word: 'other outcome' },
};

export interface TrendChartBar {
  series: string;
  x: number;
  y: number;
  width: number;
  height: number;
  label: string;
}

/** The template's view of one family. */
export function buildTrendViews(result: { targets: readonly { name: string; version?: string }[]; cells: Iterable<TrendSourceCell> }) {
  return buildTrendFamilies(result.cells, result.targets).map((family, index) => toView(family, index));
}

function toView(family: TrendFamily, index: number) {
  const versions = family.versions.map((v) => ({ ...v, version: sanitizeText(v.version), target: sanitizeText(v.target) }));
  const groupWidth = SERIES.length * BAR + GAP;
  const max = Math.max(1, ...family.versions.flatMap((v) => SERIES.map((s) => v[s.key])));
  const bars: TrendChartBar[] = [];
  versions.forEach((v, i) => {
    SERIES.forEach((series, s) => {
      const value = v[series.key];
      const height = Math.round((value / max) * PLOT_HEIGHT);
      bars.push({ series: series.key, x: LEFT + i * groupWidth + s * BAR, y: TOP + PLOT_HEIGHT - height, width: BAR - 1, height, label: `${v.version}: ${value} ${series.word}` });
    });
  });
  const baseline = TOP + PLOT_HEIGHT;
  const labels = versions.map((v, i) => {
    const x = LEFT + i * groupWidth + (SERIES.length * BAR) / 2;
    return { text: v.version, x, y: baseline + 10, transform: `rotate(-55 ${x} ${baseline + 10})` };
  });
  return {
    id: `trend-${index}`,
    family: sanitizeText(family.family),
    versions,
    steadyRows: family.steadyRows,
    chart: {
      width: LEFT + versions.length * groupWidth + GAP,
      height: baseline + LABEL_ROOM,
      baseline,
      top: TOP,
      max,
      axisX: LEFT - 4,
      bars,
      labels,
      summary: versions.map((v) => `${v.version}: ${v.passed} passed, ${v.failed} failed, ${v.falseSuccesses} false successes`).join('; '),
    },
    rows: family.rows.map((row) => ({
      caseId: sanitizeText(row.caseId),
      protocolVersion: row.protocolVersion,
      cells: row.cells.map((cell) => {
        const style = cell.change ? CHANGE_STYLE[cell.change] : undefined;
        return {
          status: cell.status,
          outcome: sanitizeText(cell.outcome),
          ...(style ? { change: cell.change, symbol: style.symbol, changeWord: `${style.word}${cell.consequence ? ` (${cell.consequence})` : ''}` } : {}),
        };
      }),
    })),
  };
}
