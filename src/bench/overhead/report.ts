/** The overhead benchmark's report (./main.ts): its shape, issue 42's goals and its Markdown. */
import { DIRECT_THEN_SNAPSHOT, median } from "./runners.js"
import { stagesMarkdown, type StageRow } from "./stages.js"

interface RoundTrips {
  readonly cdpCommands: number
  readonly extraApi: ReadonlyArray<string>
}

/** The report written to bench/out/overhead-<label>.json and rendered as Markdown. */
export interface OverheadReport {
  readonly date: string
  readonly label: string
  readonly command: string
  readonly runtime: string
  readonly node: string
  readonly cpus: number
  readonly loadAverage: { readonly start: ReadonlyArray<number>; readonly end: ReadonlyArray<number> }
  readonly calls: number
  readonly goal: typeof GOALS
  readonly summary: Readonly<Record<string, { readonly read: number; readonly action: number }>>
  /** The summary's ratios paired by round: the median over rounds of each round's sum over the direct runner's sum in it. */
  readonly pairedByRound: Readonly<Record<string, { readonly read: number; readonly action: number }>>
  /** Actions after a snapshot (in-memory, stdio) over the direct actions each followed by the page's aria snapshot. */
  readonly actionsAgainstSnapshot: { readonly inMemory: number; readonly stdio: number }
  /** Each Stagewright runner's reads over the same reads made directly on its own page (./same-page.ts); absent off the stand-in. */
  readonly readsOnSamePage: Readonly<Record<string, number>> | undefined
  readonly types: ReadonlyArray<{
    readonly name: string
    readonly kind: string
    readonly direct: { readonly medianMs: number }
    readonly via: Readonly<Record<string, { readonly medianMs: number; readonly ratio: number }>>
    readonly roundTrips: { readonly direct: { readonly cdpCommands: number }; readonly stagewright: RoundTrips; readonly stagewrightNoSnapshot: RoundTrips }
  }>
  readonly probes: Readonly<Record<string, { readonly medianMs: number; readonly cdpCommands: number | undefined }>>
  readonly stages: ReadonlyArray<{ readonly name: string; readonly snapshot: boolean; readonly oursMs: number; readonly rows: ReadonlyArray<StageRow> }>
}

/**
 * A runner's ratio to a reference paired by round: each round's sum of `calls` through `runner` over the reference's
 * sum in that round, the median over the rounds. The runners take turns call by call, so a round's two sums ran close
 * together: a slow spell of the machine moves both, where the medians of a whole run can each fall in another.
 */
export const pairedByRound = (
  timings: ReadonlyMap<string, ReadonlyMap<string, ReadonlyArray<number>>>,
  calls: ReadonlyArray<string>,
  runner: string,
  reference: string
): number => {
  const sumOf = (name: string, round: number) => calls.reduce((sum, call) => sum + timings.get(name)!.get(call)![round]!, 0)
  const rounds = Math.min(...[runner, reference].flatMap((name) => calls.map((call) => timings.get(name)!.get(call)!.length)))
  return median(Array.from({ length: rounds }, (_, round) => sumOf(runner, round) / sumOf(reference, round)))
}

/** Issue 42's goals: ratio to direct playwright-core. */
export const GOALS = { readInMemory: 1.3, readStdio: 1.7, actionNoSnapshot: 1.1, actionAfterSnapshot: 1.4 } as const

export const toMarkdown = (report: OverheadReport): string => {
  const lines: Array<string> = []
  const others = Object.keys(report.summary) as Array<string>
  lines.push(`# Overhead: Stagewright vs playwright-core directly (${report.label})`, "")
  lines.push(
    `${report.date}, ${report.runtime} runtime, Node ${report.node}, ${report.cpus} CPUs, load average ${report.loadAverage.start.join(" ")} → ${report.loadAverage.end.join(" ")}.`,
    `${report.calls} calls per runner (${report.calls / 8} rounds of 4 reads and 4 actions on the tasks app, after an untimed warm-up round; the runners take turns call by call); median latency per call type.`,
    `"${DIRECT_THEN_SNAPSHOT}" is the direct calls with each action followed by the page's aria snapshot (\`page.ariaSnapshot({ mode: "ai" })\`): what showing an agent the page after an action costs through playwright-core alone.`,
    `"in-memory" and "stdio" took an electron_snapshot first (so actions return the change in the accessibility tree); "in-memory, no snapshot" did not. "bare SDK handler" is an MCP SDK server whose handler makes the direct call (on the in-memory pair, and over stdio in a child process): the MCP hop's own cost.`,
    `Reproduce: \`${report.command}\`.`,
    ""
  )
  const g = report.goal
  lines.push(
    `Goals: reads ≤ ${g.readInMemory}× in-memory (with and without a snapshot), ≤ ${g.readStdio}× over stdio; actions ≤ ${g.actionNoSnapshot}× without a snapshot, ≤ ${g.actionAfterSnapshot}× after one.`,
    ""
  )
  lines.push(`| call | kind | direct | ${others.map((o) => `${o} | ratio`).join(" | ")} |`)
  lines.push(`|---|---|---:|${others.map(() => "---:|---:").join("|")}|`)
  for (const t of report.types) {
    lines.push(`| ${t.name} | ${t.kind} | ${t.direct.medianMs} ms | ${others.map((o) => `${t.via[o].medianMs} ms | ${t.via[o].ratio}×`).join(" | ")} |`)
  }
  lines.push(`| **all reads** | | | ${others.map((o) => `| ${report.summary[o].read}×`).join(" | ")} |`)
  lines.push(`| **all actions** | | | ${others.map((o) => `| ${report.summary[o].action}×`).join(" | ")} |`, "")
  lines.push(
    "The same ratios paired by round (the median over the rounds of a round's sum of the kind's calls over the direct runner's sum in that round: a slow spell of the machine moves both):",
    "",
    `| | ${others.join(" | ")} |`,
    `|---|${others.map(() => "---:").join("|")}|`,
    `| reads | ${others.map((o) => `${report.pairedByRound[o].read}×`).join(" | ")} |`,
    `| actions | ${others.map((o) => `${report.pairedByRound[o].action}×`).join(" | ")} |`,
    ""
  )
  const a = report.actionsAgainstSnapshot
  lines.push(
    `Actions after a snapshot (their answers carry the change summary) against the same actions each followed by the page's aria snapshot through playwright-core ("${DIRECT_THEN_SNAPSHOT}"): in-memory ${a.inMemory}×, stdio ${a.stdio}×.`,
    ""
  )
  if (report.readsOnSamePage === undefined) {
    lines.push("Reads against direct playwright-core on the same page: not measured (a real Electron's port 0 is not discoverable).", "")
  } else {
    lines.push(
      "Reads against the same reads made directly through playwright-core on the runner's own page (a second CDP connection to its app, in the same rounds; each runner's app differs from the direct runner's):",
      "",
      "| runner | reads ÷ direct on its page | goal |",
      "|---|---:|---:|",
      ...Object.entries(report.readsOnSamePage).map(([runner, ratio]) => `| ${runner} | ${ratio}× | ≤ ${runner === "stdio" ? g.readStdio : g.readInMemory}× |`),
      ""
    )
  }
  lines.push("## Round trips per call", "")
  lines.push(
    "CDP commands playwright-core sent to the app during the call (DEBUG=pw:protocol), and the playwright-core API calls Stagewright made beyond the direct ones (DEBUG=pw:api).",
    ""
  )
  lines.push("| call | direct CDP | Stagewright CDP (after snapshot) | no snapshot | extra API calls (after snapshot) | extra API calls (no snapshot) |")
  lines.push("|---|---:|---:|---:|---|---|")
  for (const t of report.types) {
    const r = t.roundTrips
    lines.push(
      `| ${t.name} | ${r.direct.cdpCommands} | ${r.stagewright.cdpCommands} | ${r.stagewrightNoSnapshot.cdpCommands} | ${r.stagewright.extraApi.join(", ") || "–"} | ${r.stagewrightNoSnapshot.extraApi.join(", ") || "–"} |`
    )
  }
  lines.push("")
  lines.push(...stagesMarkdown(report.stages))
  lines.push("## What the added calls cost alone", "", "Each timed directly through playwright-core on the same page (median of 25):", "")
  lines.push("| playwright-core call | median | CDP commands |", "|---|---:|---:|")
  for (const [name, p] of Object.entries(report.probes)) lines.push(`| ${name} | ${p.medianMs} ms | ${p.cdpCommands} |`)
  lines.push("")
  return lines.join("\n") + "\n"
}
