/**
 * SVG charts of `pnpm bench` figures (issue 13 "Docs with pictures"). A benchmark returns flat
 * named figures (`"adapter-express req/s": 14000`, `"feed p50 (ms)": 0.4`, `"ratio (goal ≥ 0.8)":
 * 0.93`); the figures are grouped by the unit their names carry, and each group becomes one panel
 * of horizontal bars. A goal written in the name (`goal ≥ 0.8`, `goal ≤ 1.5`) is drawn as a marker
 * line, and bars that miss it are drawn in a different colour. No dependencies: plain SVG text.
 */

/** The unit groups, in the order panels are drawn; the first whose test matches a figure's name wins. */
const UNITS: readonly { title: string; test: RegExp }[] = [
  { title: "ratios (×)", test: /ratio|goal|×|\s\/\s/i },
  { title: "requests per second", test: /req\/s/i },
  { title: "per second", test: /\/s\b|per second/i },
  { title: "milliseconds", test: /\(ms\)|\bms\b/i },
  { title: "seconds", test: /\(s\)|seconds/i },
  { title: "megabytes", test: /\bMB\b/i },
];

export interface ChartBar {
  label: string;
  value: number;
  goal?: { op: "≥" | "≤"; value: number };
}

export interface ChartPanel {
  title: string;
  bars: ChartBar[];
}

/** The goal a figure's name states (`goal ≥ 0.8`, `goal >= 0.8`, `goal ≤ 1.5`). */
export function goalOf(name: string): ChartBar["goal"] {
  const m = /goal\s*(≥|>=|≤|<=)\s*([0-9]*\.?[0-9]+)/i.exec(name);
  if (m === null) return undefined;
  return { op: m[1] === "≤" || m[1] === "<=" ? "≤" : "≥", value: Number(m[2]) };
}

/** Groups numeric figures into panels by unit; figures of no known unit go to "other". */
export function panelsOf(figures: Record<string, unknown>): ChartPanel[] {
  const panels = new Map<string, ChartBar[]>();
  for (const [name, value] of Object.entries(figures)) {
    if (typeof value !== "number" || !Number.isFinite(value)) continue;
    const title = UNITS.find((u) => u.test.test(name))?.title ?? "other";
    const goal = goalOf(name);
    const bars = panels.get(title) ?? [];
    bars.push({ label: name, value, ...(goal === undefined ? {} : { goal }) });
    panels.set(title, bars);
  }
  const order = [...UNITS.map((u) => u.title), "other"];
  return [...panels.entries()].sort(([a], [b]) => order.indexOf(a) - order.indexOf(b)).map(([title, bars]) => ({ title, bars }));
}

const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const format = (n: number) => (Math.abs(n) >= 1000 ? Math.round(n).toLocaleString("en-US") : Number(n.toPrecision(3)).toString());

const meets = (bar: ChartBar) => bar.goal === undefined || (bar.goal.op === "≥" ? bar.value >= bar.goal.value : bar.value <= bar.goal.value);

/**
 * The width a label takes at 12 px in DejaVu Sans (the widest of the fonts named), from per-glyph
 * advance widths in em rounded up: wide capitals and digits, narrow i/l/punctuation. An estimate
 * that errs wide, so no label is clipped or runs into its bar.
 */
export function labelWidthOf(text: string, fontSize = 12): number {
  let em = 0;
  for (const ch of text) {
    if (/[MW@%]/.test(ch)) em += 0.9;
    else if (/[A-Z≥≤×]/.test(ch)) em += 0.72;
    else if (/[0-9a-hk-z_?+=<>/~-]/.test(ch)) em += 0.64;
    else if (/[ijlft.,:;'|!() [\]]/.test(ch)) em += 0.36;
    else em += 0.8;
  }
  return Math.ceil(em * fontSize);
}

/** One SVG with a panel per unit group; the label column is as wide as its longest label. */
export function renderChart(title: string, subtitle: string, panels: readonly ChartPanel[]): string {
  const longest = Math.max(0, ...panels.flatMap((p) => p.bars.map((b) => labelWidthOf(b.label))));
  const labelWidth = Math.max(200, longest + 24);
  const barArea = 470;
  const width = labelWidth + barArea + 90;
  const rowHeight = 22;
  const parts: string[] = [];
  let y = 56;
  for (const panel of panels) {
    parts.push(`<text x="16" y="${y}" font-size="15" font-weight="bold">${escape(panel.title)}</text>`);
    y += 10;
    const max = Math.max(...panel.bars.map((b) => Math.max(b.value, b.goal?.value ?? 0)), Number.MIN_VALUE);
    const scale = (v: number) => (Math.max(0, v) / max) * barArea;
    for (const bar of panel.bars) {
      const w = scale(bar.value);
      const colour = meets(bar) ? "#2563eb" : "#dc2626";
      parts.push(`<text x="${labelWidth - 8}" y="${y + 15}" font-size="12" text-anchor="end">${escape(bar.label)}</text>`);
      parts.push(`<rect x="${labelWidth}" y="${y + 4}" width="${w.toFixed(1)}" height="${rowHeight - 8}" fill="${colour}"/>`);
      parts.push(`<text x="${(labelWidth + w + 6).toFixed(1)}" y="${y + 15}" font-size="12">${escape(format(bar.value))}</text>`);
      if (bar.goal !== undefined) {
        const gx = labelWidth + scale(bar.goal.value);
        parts.push(`<line x1="${gx.toFixed(1)}" x2="${gx.toFixed(1)}" y1="${y + 1}" y2="${y + rowHeight - 1}" stroke="#111827" stroke-width="2" stroke-dasharray="3 2"><title>goal ${bar.goal.op} ${bar.goal.value}</title></line>`);
      }
      y += rowHeight;
    }
    y += 18;
  }
  const height = y + 8;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="DejaVu Sans, Arial, sans-serif">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="16" y="24" font-size="18" font-weight="bold">${escape(title)}</text>`,
    `<text x="16" y="42" font-size="12" fill="#4b5563">${escape(subtitle)} · dashed line: goal · red: goal missed</text>`,
    ...parts,
    `</svg>`,
    "",
  ].join("\n");
}
