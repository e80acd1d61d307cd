/**
 * Cold-start benchmark: how long a host waits, and how much memory it pays, from spawning
 * `stagewright serve` to having its tool list, against the physical floor here: a bare MCP SDK stdio
 * server (src/bench/coldstart/floor.mjs) listing the very same tools/list payload.
 *
 *   npm run bench:coldstart -- [--runs 5] [--bin dist/cli.js] [--save-as report] [--baseline before]
 *
 * For each variant (each profile, and full with every eval tool) the two servers are started pair by
 * pair, interleaved (the order alternates per round), N rounds; the medians and their ratio are
 * reported, with `stagewright --help` (and bare `node -e 0` for reference). The bin compiles with V8's
 * code cache (src/cli/compile-cache.ts): the bench gives it a cache folder of its own, warmed by the
 * untimed first start of each variant, times one start with an empty folder (a first start after an
 * install or an upgrade, which also writes the cache), and one variant without the cache. Writes
 * bench/out/coldstart-<save-as>.json (ignored) and bench/coldstart-<save-as>.md; when bench/out/coldstart-<baseline>.json exists, the Markdown also
 * puts the two side by side.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { cpus, loadavg, tmpdir } from "node:os"
import { dirname, join, relative, resolve } from "node:path"
import { repoRoot } from "../repo-root.js"
import { haveTimeBin, measureCommand, measureStart, median, TIME_BIN, type StartSample } from "./measure.js"

const argValue = (name: string): string | undefined => {
  const index = process.argv.indexOf(`--${name}`)
  return index >= 0 ? process.argv[index + 1] : undefined
}

const root = repoRoot()
const runs = Number(argValue("runs") ?? 5)
const bin = resolve(argValue("bin") ?? join(root, "dist", "cli.js"))
const saveAs = argValue("save-as") ?? "report"
const baselineLabel = argValue("baseline") ?? "before"
const floorScript = join(root, "src", "bench", "coldstart", "floor.mjs")

interface Variant {
  readonly name: string
  readonly flags: ReadonlyArray<string>
  /** Starts this variant without the bin's compile cache (STAGEWRIGHT_COMPILE_CACHE=off). */
  readonly noCache?: boolean
}

const VARIANTS: ReadonlyArray<Variant> = [
  { name: "essential (default)", flags: [] },
  { name: "testing", flags: ["--tool-profile", "testing"] },
  { name: "debug", flags: ["--tool-profile", "debug"] },
  { name: "full", flags: ["--tool-profile", "full"] },
  { name: "full + eval all", flags: ["--tool-profile", "full", "--allow-eval", "all"] },
  { name: "full, no compile cache", flags: ["--tool-profile", "full"], noCache: true }
]

interface Summary {
  readonly wallMs: number
  readonly listMs: number
  readonly initializeMs: number
  readonly peakRssMiB: number
  readonly cpuMs: number
}

const summarize = (samples: ReadonlyArray<StartSample>): Summary => ({
  wallMs: median(samples.map((s) => s.wallMs)),
  listMs: median(samples.map((s) => s.listMs)),
  initializeMs: median(samples.map((s) => s.initializeMs)),
  peakRssMiB: median(samples.map((s) => s.peakRssMiB)),
  cpuMs: median(samples.map((s) => s.cpuMs))
})

export interface ColdstartReport {
  readonly date: string
  readonly label: string
  readonly command: string
  readonly bin: string
  readonly runs: number
  readonly node: string
  readonly cpus: number
  readonly loadAverage: { readonly start: ReadonlyArray<number>; readonly end: ReadonlyArray<number> }
  readonly rssSource: string
  readonly goal: { readonly wallRatio: number; readonly peakRssMiB: number; readonly helpMs: number }
  /** The first start with no compile cache at all (it compiles everything and writes the cache at exit). */
  readonly firstStart?: { readonly wallMs: number; readonly peakRssMiB: number; readonly cpuMs: number }
  /** The first start after a build: no cache of the user's, the one the build shipped beside the bundle. */
  readonly afterBuild?: { readonly wallMs: number; readonly peakRssMiB: number; readonly cpuMs: number }
  readonly variants: ReadonlyArray<{
    readonly name: string
    readonly flags: ReadonlyArray<string>
    readonly tools: number
    readonly floor: Summary
    readonly stagewright: Summary
    readonly wallRatio: number
    readonly listRatio: number
    readonly cpuRatio: number
    readonly rssRatio: number
    readonly meetsGoal: boolean
    readonly samples: { readonly floor: ReadonlyArray<Omit<StartSample, "tools">>; readonly stagewright: ReadonlyArray<Omit<StartSample, "tools">> }
  }>
  readonly help: {
    readonly stagewright: { readonly wallMs: number; readonly peakRssMiB: number; readonly cpuMs?: number }
    readonly bareNode: { readonly wallMs: number; readonly peakRssMiB: number; readonly cpuMs?: number }
    readonly meetsGoal: boolean
    readonly samplesMs: ReadonlyArray<number>
  }
}

const GOAL = { wallRatio: 1.2, peakRssMiB: 90, helpMs: 500 }
const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100
const strip = ({ tools: _tools, ...rest }: StartSample) => rest

const main = async () => {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run npm run build first`)
  const start = loadavg()
  const work = mkdtempSync(join(tmpdir(), "stagewright-coldstart-floor-"))
  const log = (line: string) => process.stderr.write(line + "\n")
  log(`cold start: ${relative(root, bin)} vs the bare SDK floor, ${runs} rounds, RSS from ${haveTimeBin() ? `${TIME_BIN} (getrusage maxrss)` : "/proc VmHWM"}`)

  // The bin's compile cache: a folder of the bench's own, so a user's cache neither helps nor suffers.
  const cacheEnv = (variant: Variant): NodeJS.ProcessEnv => ({
    ...process.env,
    STAGEWRIGHT_COMPILE_CACHE: variant.noCache ? "off" : join(work, "compile-cache")
  })
  // A first start after a build: no cache of the user's own, the one the build shipped beside the bundle.
  const home = join(work, "home")
  const afterBuildEnv: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CACHE_HOME: join(home, "cache") }
  delete afterBuildEnv["STAGEWRIGHT_COMPILE_CACHE"]
  const afterBuild = await measureStart([bin, "serve"], { env: afterBuildEnv })
  log(`  first start after a build (the shipped cache): ${afterBuild.wallMs} ms, ${afterBuild.peakRssMiB} MiB`)
  // A first start with no cache at all (a Node other than the build's): it compiles and writes one.
  const first = await measureStart([bin, "serve"], { env: { ...process.env, STAGEWRIGHT_COMPILE_CACHE: join(work, "empty-cache") } })
  log(`  first start with no compile cache at all: ${first.wallMs} ms, ${first.peakRssMiB} MiB`)

  // Warm-up (untimed): one start per variant gives the exact payload the floor will list (and the cache).
  const payloads = new Map<string, string>()
  for (const variant of VARIANTS) {
    const warm = await measureStart([bin, "serve", ...variant.flags], { env: cacheEnv(variant) })
    const file = join(work, `${payloads.size}.json`)
    writeFileSync(file, JSON.stringify(warm.tools))
    payloads.set(variant.name, file)
    await measureStart([floorScript, file])
  }

  const samples = new Map<string, { floor: Array<StartSample>; stagewright: Array<StartSample> }>()
  for (const variant of VARIANTS) samples.set(variant.name, { floor: [], stagewright: [] })
  for (let round = 0; round < runs; round++) {
    for (const variant of VARIANTS) {
      const entry = samples.get(variant.name)!
      const floor = () => measureStart([floorScript, payloads.get(variant.name)!]).then((s) => entry.floor.push(s))
      const ours = () => measureStart([bin, "serve", ...variant.flags], { env: cacheEnv(variant) }).then((s) => entry.stagewright.push(s))
      if (round % 2 === 0) {
        await floor()
        await ours()
      } else {
        await ours()
        await floor()
      }
      const last = (xs: Array<StartSample>) => xs[xs.length - 1]!
      log(
        `  round ${round + 1} ${variant.name.padEnd(16)} floor ${last(entry.floor).wallMs} ms ${last(entry.floor).peakRssMiB} MiB | stagewright ${last(entry.stagewright).wallMs} ms ${last(entry.stagewright).peakRssMiB} MiB`
      )
    }
  }

  const help: Array<{ wallMs: number; peakRssMiB: number; cpuMs: number }> = []
  const bare: Array<{ wallMs: number; peakRssMiB: number; cpuMs: number }> = []
  const helpEnv = { ...process.env, STAGEWRIGHT_COMPILE_CACHE: join(work, "compile-cache") }
  await measureCommand([bin, "--help"], helpEnv)
  for (let round = 0; round < runs; round++) {
    const h = await measureCommand([bin, "--help"], helpEnv)
    if (h.status !== 0 || h.stdoutBytes === 0) throw new Error(`--help exited ${h.status} with ${h.stdoutBytes} bytes`)
    help.push(h)
    bare.push(await measureCommand(["-e", "0"]))
  }
  rmSync(work, { recursive: true, force: true })

  const variants = VARIANTS.map((variant) => {
    const entry = samples.get(variant.name)!
    const floor = summarize(entry.floor)
    const stagewright = summarize(entry.stagewright)
    const tools = entry.stagewright[0]!.toolCount
    if (entry.floor.some((s) => s.toolCount !== tools)) throw new Error(`${variant.name}: the floor listed a different number of tools`)
    const wallRatio = ratio(stagewright.wallMs, floor.wallMs)
    return {
      name: variant.name,
      flags: variant.flags,
      tools,
      floor,
      stagewright,
      wallRatio,
      listRatio: ratio(stagewright.listMs, floor.listMs),
      cpuRatio: ratio(stagewright.cpuMs, floor.cpuMs),
      rssRatio: ratio(stagewright.peakRssMiB, floor.peakRssMiB),
      meetsGoal: wallRatio <= GOAL.wallRatio && stagewright.peakRssMiB <= GOAL.peakRssMiB,
      samples: { floor: entry.floor.map(strip), stagewright: entry.stagewright.map(strip) }
    }
  })
  const helpWall = median(help.map((h) => h.wallMs))
  const report: ColdstartReport = {
    date: new Date().toISOString(),
    label: saveAs,
    command: `npm run bench:coldstart -- ${process.argv.slice(2).join(" ")}`.trim(),
    bin: relative(root, bin),
    runs,
    node: process.version,
    cpus: cpus().length,
    loadAverage: { start: start.map((n) => Math.round(n * 100) / 100), end: loadavg().map((n) => Math.round(n * 100) / 100) },
    rssSource: haveTimeBin() ? "getrusage maxrss of the node process (/usr/bin/time -f %M)" : "VmHWM from /proc/<pid>/status",
    goal: GOAL,
    firstStart: { wallMs: first.wallMs, peakRssMiB: first.peakRssMiB, cpuMs: first.cpuMs },
    afterBuild: { wallMs: afterBuild.wallMs, peakRssMiB: afterBuild.peakRssMiB, cpuMs: afterBuild.cpuMs },
    variants,
    help: {
      stagewright: { wallMs: helpWall, peakRssMiB: median(help.map((h) => h.peakRssMiB)), cpuMs: median(help.map((h) => h.cpuMs)) },
      bareNode: { wallMs: median(bare.map((h) => h.wallMs)), peakRssMiB: median(bare.map((h) => h.peakRssMiB)), cpuMs: median(bare.map((h) => h.cpuMs)) },
      meetsGoal: helpWall < GOAL.helpMs,
      samplesMs: help.map((h) => h.wallMs)
    }
  }
  // The JSON goes to the ignored bench/out/ (the baseline compared with is read from there); the Markdown stays in bench/.
  const base = join(root, "bench", `coldstart-${saveAs}`)
  const json = join(root, "bench", "out", `coldstart-${saveAs}.json`)
  mkdirSync(dirname(json), { recursive: true })
  writeFileSync(json, JSON.stringify(report, null, 2) + "\n")
  const baselineFile = join(root, "bench", "out", `coldstart-${baselineLabel}.json`)
  const baseline = baselineLabel !== saveAs && existsSync(baselineFile) ? (JSON.parse(readFileSync(baselineFile, "utf8")) as ColdstartReport) : undefined
  const markdown = toMarkdown(report, baseline)
  writeFileSync(`${base}.md`, markdown)
  process.stdout.write(markdown)
}

const toMarkdown = (report: ColdstartReport, baseline?: ColdstartReport): string => {
  const lines: Array<string> = []
  lines.push(`# Cold start: \`${report.bin} serve\` vs a bare MCP SDK stdio server (${report.label})`, "")
  lines.push(
    `${report.date}, Node ${report.node}, ${report.cpus} CPUs, load average ${report.loadAverage.start.join(" ")} → ${report.loadAverage.end.join(" ")}.`,
    `Each start: spawn → initialize → tools/list → close stdin → exit; median of ${report.runs}, pairs interleaved. Peak RSS: ${report.rssSource}.`,
    `CPU is user + system time of the process (getrusage): on a loaded machine it is steadier than wall, which also counts waiting for a core.`,
    `The floor (src/bench/coldstart/floor.mjs) lists the exact tools/list payload Stagewright returned for the variant.`,
    `Reproduce: \`npm run build && ${report.command}\`.`,
    ""
  )
  lines.push(
    `Goal: wall ≤ ${report.goal.wallRatio}× the floor and peak RSS ≤ ${report.goal.peakRssMiB} MiB for every variant; \`--help\` < ${report.goal.helpMs} ms.`,
    ""
  )
  lines.push(
    "| variant | tools | floor wall | stagewright wall | wall ratio | floor CPU | stagewright CPU | CPU ratio | floor → tools/list | stagewright → tools/list | floor RSS | stagewright RSS | goal |"
  )
  lines.push("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
  for (const v of report.variants) {
    lines.push(
      `| ${v.name} | ${v.tools} | ${v.floor.wallMs} ms | ${v.stagewright.wallMs} ms | ${v.wallRatio}× | ${v.floor.cpuMs ?? "–"} ms | ${v.stagewright.cpuMs ?? "–"} ms | ${v.cpuRatio ?? "–"}× | ${v.floor.listMs} ms | ${v.stagewright.listMs} ms | ${v.floor.peakRssMiB} MiB | ${v.stagewright.peakRssMiB} MiB | ${v.meetsGoal ? "met" : "not met"} |`
    )
  }
  lines.push("")
  if (report.afterBuild !== undefined) {
    lines.push(
      `First start after \`npm run build\` (no cache of the user's; the one the build wrote beside the bundle): ${report.afterBuild.wallMs} ms wall, ${report.afterBuild.cpuMs} ms CPU, ${report.afterBuild.peakRssMiB} MiB.`,
      ""
    )
  }
  if (report.firstStart !== undefined) {
    lines.push(
      `First start with no compile cache at all (a Node other than the build's; it compiles everything and writes its cache at exit): ${report.firstStart.wallMs} ms wall, ${report.firstStart.cpuMs} ms CPU, ${report.firstStart.peakRssMiB} MiB. The table's rows start with the cache the warm-up wrote (in a folder of the bench's own), except "no compile cache".`,
      ""
    )
  }
  lines.push(
    `\`stagewright --help\`: ${report.help.stagewright.wallMs} ms wall, ${report.help.stagewright.cpuMs ?? "–"} ms CPU, ${report.help.stagewright.peakRssMiB} MiB (bare \`node -e 0\`: ${report.help.bareNode.wallMs} ms, ${report.help.bareNode.cpuMs ?? "–"} ms CPU, ${report.help.bareNode.peakRssMiB} MiB) — goal ${report.help.meetsGoal ? "met" : "not met"}.`,
    ""
  )
  if (baseline !== undefined) {
    lines.push(`## Against ${baseline.label} (${baseline.date}, \`${baseline.bin}\`)`, "")
    lines.push(
      `| variant | ${baseline.label} wall | ${baseline.label} ratio | ${baseline.label} RSS | ${report.label} wall | ${report.label} ratio | ${report.label} RSS |`
    )
    lines.push("|---|---:|---:|---:|---:|---:|---:|")
    for (const v of report.variants) {
      const b = baseline.variants.find((x) => x.name === v.name)
      if (b === undefined) continue
      lines.push(
        `| ${v.name} | ${b.stagewright.wallMs} ms | ${b.wallRatio}× | ${b.stagewright.peakRssMiB} MiB | ${v.stagewright.wallMs} ms | ${v.wallRatio}× | ${v.stagewright.peakRssMiB} MiB |`
      )
    }
    lines.push(
      `| --help | ${baseline.help.stagewright.wallMs} ms | | ${baseline.help.stagewright.peakRssMiB} MiB | ${report.help.stagewright.wallMs} ms | | ${report.help.stagewright.peakRssMiB} MiB |`,
      ""
    )
  }
  return lines.join("\n") + "\n"
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`)
  process.exit(1)
})
