/**
 * The profile benchmark's scoring, parsing and merge (pure: no app is launched).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { countTokens } from "gpt-tokenizer/encoding/o200k_base"
import { parseNodes } from "../../src/bench/profiles/agent.js"
import { jobsOf, parseRunArgs } from "../../src/bench/profiles/cli.js"
import { buildReport, differences, mergeReports } from "../../src/bench/profiles/merge.js"
import { DECISIVE_COMMAND, toMarkdown, toSvg } from "../../src/bench/profiles/report.js"
import { CONTROLS, VARIANTS } from "../../src/bench/profiles/run.js"
import {
  bpe,
  contentText,
  detectRetries,
  manifestBpe,
  requestBpe,
  responseBpe,
  responseByTool,
  summarize,
  verdictOf,
  type TaskResult
} from "../../src/bench/profiles/scoring.js"
import { ALL_TASKS } from "../../src/bench/profiles/tasks.js"

const result = (task: string, variant: string, over: Partial<TaskResult> = {}): TaskResult => ({
  task,
  variant,
  success: true,
  detail: "",
  fallbacks: [],
  calls: 4,
  failedCalls: 0,
  retries: 0,
  manifestBpe: 1000,
  toolsListed: 19,
  responseBpe: 200,
  requestBpe: 50,
  totalBpe: 1250,
  wallMs: 10,
  timedOut: false,
  toolsUsed: ["electron_launch"],
  ...over
})

describe("BPE counting", () => {
  it("counts o200k tokens of text, of tools/call params and of the listed tools", () => {
    expect(bpe("")).toBe(0)
    expect(bpe("Clicked Add task.")).toBe(countTokens("Clicked Add task."))
    expect(bpe("<|endoftext|>")).toBeGreaterThan(1)
    expect(requestBpe("electron_click", { target: "e12" })).toBe(countTokens(JSON.stringify({ name: "electron_click", arguments: { target: "e12" } })))
    const tools = [{ name: "electron_launch", description: "Start an app" }]
    expect(manifestBpe(tools)).toBe(countTokens(JSON.stringify({ tools })))
  })

  it("counts a result's text content verbatim and an image by a short marker, never its base64", () => {
    const image = { type: "image", mimeType: "image/png", data: "A".repeat(40_000) }
    const text = contentText([{ type: "text", text: "Saved board.png" }, image])
    expect(text).toBe("Saved board.png\n[image image/png 30000 bytes]")
    expect(responseBpe([{ type: "text", text: "Saved board.png" }, image])).toBeLessThan(30)
  })
})

describe("retry detection", () => {
  const call = (tool: string, args: Record<string, unknown>, isError = false, flaggedRetry = false) => ({ tool, args, isError, flaggedRetry })

  it("flags a repeat of a failed call (same tool, same arguments in any key order) and flagged repeats", () => {
    const calls = [
      call("electron_find", { target: "role=button", limit: 50 }),
      call("electron_click", { target: "e1", timeoutMs: 5 }, true),
      call("electron_click", { timeoutMs: 5, target: "e1" }),
      call("electron_snapshot", {}),
      call("electron_click", { target: "e9" }, false, true),
      call("electron_find", { target: "role=button", limit: 50 })
    ]
    expect(detectRetries(calls)).toEqual([2, 4])
  })

  it("does not count repeats of successful calls or different arguments", () => {
    expect(
      detectRetries([
        call("electron_snapshot", {}),
        call("electron_snapshot", {}),
        call("electron_click", { target: "e1" }, true),
        call("electron_click", { target: "e2" })
      ])
    ).toEqual([])
  })
})

describe("the agent's parsing of snapshot and find results", () => {
  it("reads role, name, ref, attributes and text of each line", () => {
    const nodes = parseNodes(
      [
        "1 match for role=checkbox in w1",
        '- \'checkbox "Done: Renew \\"passport\\"" [checked] [ref=e69]\'',
        "  - status [ref=e21]: Loaded 42 tasks",
        '+     - button "Crash handler" [active] [ref=e21] [cursor=pointer]',
        '    - text: "Board:"'
      ].join("\n")
    )
    expect(nodes.map((n) => [n.role, n.name, n.ref, n.text])).toEqual([
      ["checkbox", 'Done: Renew "passport"', "e69", ""],
      ["status", "", "e21", "Loaded 42 tasks"],
      ["button", "Crash handler", "e21", ""],
      ["text", "", undefined, "Board:"]
    ])
    expect(nodes[0]?.attrs).toContain("checked")
  })

  it("reads a folded block's rows as their elements: the column's role, its name with the row's label", () => {
    const nodes = parseNodes(
      [
        '  - list "Task list" [ref=e66]:',
        '    - listitem ×2 more like the one above, folded (expand: "e76-e92" shows them); refs of checkbox "Done: …", button "Edit …" in each:',
        "      Prepare Q3 budget review e78 e83; Review pull request #482 e87 e91",
        '  - button "Add task" [ref=e95]'
      ].join("\n")
    )
    expect(nodes.filter((n) => n.ref !== undefined).map((n) => [n.role, n.name, n.ref])).toEqual([
      ["list", "Task list", "e66"],
      ["checkbox", "Done: Prepare Q3 budget review", "e78"],
      ["button", "Edit Prepare Q3 budget review", "e83"],
      ["checkbox", "Done: Review pull request #482", "e87"],
      ["button", "Edit Review pull request #482", "e91"],
      ["button", "Add task", "e95"]
    ])
  })
})

describe("summaries and the verdict", () => {
  const results = [
    ...["a", "b", "c", "d"].map((t) => result(t, "full", { totalBpe: 1000 })),
    ...["a", "b", "c"].map((t) => result(t, "essential", { totalBpe: 400 })),
    result("d", "essential", { success: false, totalBpe: 300, missingTool: "electron_web_dialog" })
  ]

  it("sums per variant and says no when essential solves under 95% of full's tasks", () => {
    const essential = summarize("essential", results)
    const full = summarize("full", results)
    expect(essential).toMatchObject({ tasks: 4, successes: 3, totalBpe: 1500, bpePerSuccess: 400 })
    const verdict = verdictOf("without eval", essential, full)
    expect(verdict?.meetsSaving).toBe(true)
    expect(verdict?.meetsSuccess).toBe(false)
    expect(verdict?.essentialBecomesDefault).toBe(false)
  })

  it("says yes only with both: >= 95% of full's success and a material saving", () => {
    const solved = results.map((r) => ({ ...r, success: true }))
    expect(verdictOf("x", summarize("essential", solved), summarize("full", solved))?.essentialBecomesDefault).toBe(true)
    const costly = solved.map((r) => (r.variant === "essential" ? { ...r, totalBpe: 990 } : r))
    expect(verdictOf("x", summarize("essential", costly), summarize("full", costly))?.essentialBecomesDefault).toBe(false)
  })
})

describe("shards and merge", () => {
  const meta = (results: ReadonlyArray<TaskResult>, control: ReadonlyArray<TaskResult>, shard?: string) =>
    buildReport({
      generatedAt: "t",
      runtime: "standin",
      encoding: "o200k_base",
      ...(shard !== undefined ? { shard } : {}),
      tasks: ALL_TASKS.map((t) => ({ id: t.id, app: t.app, covers: t.covers, statement: t.statement })),
      variants: VARIANTS.map((v) => v.name),
      results,
      control
    })

  it("splits the jobs into disjoint shards that cover one run", () => {
    const args = { tasks: ALL_TASKS, variants: VARIANTS, control: true }
    const all = jobsOf(args).map((j) => `${j.task.id}/${j.variant.name}`)
    const routed = ALL_TASKS.filter((t) => t.wrongRoute !== undefined).length
    expect(all).toHaveLength(ALL_TASKS.length * (VARIANTS.length + CONTROLS.length - 1) + routed)
    const parts = [1, 2, 3].map((index) => jobsOf({ ...args, shard: { index, count: 3 } }).map((j) => `${j.task.id}/${j.variant.name}`))
    expect(parts.flat().sort()).toEqual([...all].sort())
    expect(new Set(parts.flat()).size).toBe(all.length)
  })

  it("merges shard reports into the report of one run", () => {
    const jobs = jobsOf({ tasks: ALL_TASKS, variants: VARIANTS, control: true })
    const toResult = (j: (typeof jobs)[number]) =>
      result(j.task.id, j.variant.name, { success: j.variant.control !== true && j.variant.profile !== "essential" })
    const split = (part: ReadonlyArray<(typeof jobs)[number]>) =>
      [part.filter((j) => j.variant.control !== true).map(toResult), part.filter((j) => j.variant.control === true).map(toResult)] as const
    const one = meta(...split(jobs))
    const shards = [1, 2].map((index) =>
      meta(...split(jobsOf({ tasks: ALL_TASKS, variants: VARIANTS, control: true, shard: { index, count: 2 } })), `${index}/2`)
    )
    const merged = mergeReports([shards[1]!, shards[0]!], "t")
    expect(differences(merged, one)).toEqual([])
    expect(merged.results).toEqual(one.results)
    expect(merged.summaries).toEqual(one.summaries)
    expect(merged.verdicts).toEqual(one.verdicts)
    expect(merged.controlSuccesses).toBe(0)
    const broken = { ...one, results: one.results.map((r, i) => (i === 0 ? { ...r, success: !r.success } : r)) }
    expect(differences(merged, broken)).toHaveLength(2)
  })

  it("renders the table with every task and variant, and the chart", () => {
    const report = meta(
      [result("form-submit", "essential"), result("form-submit", "full", { success: false, missingTool: "electron_x" })],
      [result("form-submit", "control", { success: false })]
    )
    const md = toMarkdown(report, "npm run bench:profiles")
    expect(md).toContain("| form-submit | ✅ 1/1 | ❌ 0/1 | 0% |")
    expect(md).toContain("full / form-submit #1: missing `electron_x`")
    expect(toSvg(report)).toMatch(/^<svg[\s\S]*<\/svg>\n$/)
  })

  it("the decisive run (essential and full, every task, 5 repeats, the controls) is not called a subset; fewer tasks or repeats are", () => {
    const report = meta([result("form-submit", "essential"), result("form-submit", "full")], [])
    const decisive = { tasks: 60, allTasks: 60, variants: 2, allVariants: 11, repeats: 5, decideRepeats: 5, deciding: 2, controls: true }
    const md = toMarkdown(report, DECISIVE_COMMAND, decisive)
    expect(md).not.toContain("Subset run")
    expect(md).toContain("**Decisive run**")
    expect(md).toContain(`Reproduce with \`${DECISIVE_COMMAND}\``)
    expect(toMarkdown(report, "x", { ...decisive, decideRepeats: 3, repeats: 3 })).toContain("Subset run")
    expect(toMarkdown(report, "x", { ...decisive, tasks: 5 })).toContain(`The decisive run: \`${DECISIVE_COMMAND}\``)
    expect(toMarkdown(report, "x", { ...decisive, deciding: 1 })).toContain("Subset run")
  })
})

describe("command line", () => {
  it("selects tasks, variants and a shard, and rejects unknown names", () => {
    const args = Effect.runSync(parseRunArgs(["--tasks", "form-submit,search-read", "--variants", "essential,full+eval", "--shard", "2/3"]))
    expect(args.tasks.map((t) => t.id)).toEqual(["form-submit", "search-read"])
    expect(args.variants.map((v) => v.name)).toEqual(["essential", "full+eval"])
    expect(args.shard).toEqual({ index: 2, count: 3 })
    expect(Either.isLeft(Effect.runSync(Effect.either(parseRunArgs(["--tasks", "nope"]))))).toBe(true)
    expect(Either.isLeft(Effect.runSync(Effect.either(parseRunArgs(["--shard", "3/2"]))))).toBe(true)
  })

  it("has at least thirty tasks with unique ids, each with a user goal, on several apps, and eight variants", () => {
    expect(ALL_TASKS.length).toBeGreaterThanOrEqual(30)
    expect(new Set(ALL_TASKS.map((t) => t.id)).size).toBe(ALL_TASKS.length)
    expect(ALL_TASKS.filter((t) => (t.goal ?? "").length < 20).map((t) => t.id)).toEqual([])
    expect(new Set(ALL_TASKS.map((t) => t.app)).size).toBeGreaterThanOrEqual(5)
    expect(new Set(ALL_TASKS.flatMap((t) => t.plugins ?? []))).toEqual(new Set(["network", "ipc", "a11y", "native"]))
    expect(VARIANTS.map((v) => v.name)).toEqual(["essential", "essential+eval", "testing", "testing+eval", "debug", "debug+eval", "full", "full+eval"])
  })
})

describe("response BPE by tool", () => {
  it("sums calls and response BPE per tool", () => {
    const calls = [
      { tool: "electron_click", responseBpe: 30 },
      { tool: "electron_find", responseBpe: 12 },
      { tool: "electron_click", responseBpe: 5 }
    ]
    expect(responseByTool(calls)).toEqual({ electron_click: { calls: 2, bpe: 35 }, electron_find: { calls: 1, bpe: 12 } })
    expect(responseByTool([])).toEqual({})
  })
})
