/** The memory watch's arithmetic and its SVG chart (a polyline with min/max labels). */

/** Least-squares slope of y over x, with x in ms: y units per second. */
export const slopePerSecond = (points: ReadonlyArray<{ x: number; y: number }>): number => {
  const n = points.length
  if (n < 2) return 0
  const mx = points.reduce((s, p) => s + p.x, 0) / n
  const my = points.reduce((s, p) => s + p.y, 0) / n
  const num = points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0)
  const den = points.reduce((s, p) => s + (p.x - mx) ** 2, 0)
  return den === 0 ? 0 : (num / den) * 1000
}

const escape = (text: string) => text.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`)

export const chart = (points: ReadonlyArray<{ x: number; y: number }>, title: string): string => {
  const width = 640
  const height = 240
  const pad = 40
  const xs = points.map((p) => p.x)
  const ys = points.map((p) => p.y)
  const [x0, x1] = [Math.min(...xs), Math.max(...xs) || 1]
  const [y0, y1] = [Math.min(...ys), Math.max(...ys)]
  const span = y1 - y0 || 1
  const px = (x: number) => pad + ((x - x0) / (x1 - x0 || 1)) * (width - 2 * pad)
  const py = (y: number) => height - pad - ((y - y0) / span) * (height - 2 * pad)
  const line = points.map((p) => `${px(p.x).toFixed(1)},${py(p.y).toFixed(1)}`).join(" ")
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">
<rect width="100%" height="100%" fill="#fff"/>
<text x="${pad}" y="20" font-size="13">${escape(title)}</text>
<line x1="${pad}" y1="${height - pad}" x2="${width - pad}" y2="${height - pad}" stroke="#888"/>
<line x1="${pad}" y1="${pad}" x2="${pad}" y2="${height - pad}" stroke="#888"/>
<text x="2" y="${pad + 4}">${Math.round(y1)}</text>
<text x="2" y="${height - pad}">${Math.round(y0)}</text>
<text x="${pad}" y="${height - pad + 16}">${x0}</text>
<text x="${width - pad - 20}" y="${height - pad + 16}">${x1}</text>
<polyline fill="none" stroke="#1565c0" stroke-width="2" points="${line}"/>
</svg>
`
}
