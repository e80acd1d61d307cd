/**
 * The profile benchmark's method (pure: no app is launched): the "seen before" rule, the statistics the
 * verdict is decided on (flake rates, Wilson, the paired cluster bootstrap), both accountings and repeats.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { accountingOf, imageTokens, pngDims, SEARCH_CALL_BPE } from "../../src/bench/profiles/accounting.js"
import { jobsOf, parseRunArgs } from "../../src/bench/profiles/cli.js"
import { decide, verdictsOf } from "../../src/bench/profiles/decide.js"
import { appIdentifiers, unseenTargets } from "../../src/bench/profiles/observed.js"
import { CONTROLS, VARIANTS } from "../../src/bench/profiles/run.js"
import { bpe, type TaskResult } from "../../src/bench/profiles/scoring.js"
import { itemsOfSteps, rankByRegex, retrievability, retrievalDrops, tunedSteps } from "../../src/bench/profiles/retrieval.js"
import { cellsOf, pairBound, wilson } from "../../src/bench/profiles/stats.js"
import { ALL_TASKS } from "../../src/bench/profiles/tasks.js"

const snapshot = ["- main [ref=e1]:", '  - button "Add task" [ref=e5]', "  - status [ref=e6]: Loaded 42 tasks", '  - list "Task list" [ref=e7]'].join("\n")

describe("seen before: a target must come from an earlier answer", () => {
  it("passes refs, roles with names and window ids an earlier answer showed", () => {
    const calls = [
      { tool: "electron_launch", args: { app: "/apps/tasks" }, answer: '* w1 "Tasks — My board" file:///…/index.html' },
      { tool: "electron_snapshot", args: {}, answer: snapshot },
      { tool: "electron_click", args: { target: "e5" }, answer: "Clicked" },
      { tool: "electron_find", args: { target: 'role=button[name="Add task"]' }, answer: '- button "Add task" [ref=e9]' },
      { tool: "electron_select_window", args: { window: "w1" }, answer: "w1 is active" },
      { tool: "electron_wait_for", args: { textGone: "Loaded 42 tasks" }, answer: "gone" }
    ]
    expect(unseenTargets(calls, "Add a task")).toEqual([])
  })

  it("fails a step whose selector, ref, test id, URL or waited-for text no earlier answer showed", () => {
    const calls = [
      { tool: "electron_snapshot", args: {}, answer: snapshot },
      { tool: "electron_wait_for", args: { target: "css=body[data-saved]", state: "attached" }, answer: "attached" },
      { tool: "electron_click", args: { target: "e99" }, answer: "Clicked" },
      { tool: "electron_find", args: { target: "[data-testid=task-row]" }, answer: "" },
      { tool: "electron_wait_for_window", args: { url: "127.0.0.1:2" }, answer: "" },
      { tool: "electron_wait_for", args: { text: "Saved changes" }, answer: "" },
      { tool: "electron_find", args: { target: 'role=button[name="Delete all"]' }, answer: "" },
      { tool: "electron_eval_renderer", args: { function: "() => document.querySelector('#task-form').id" }, answer: "" }
    ]
    const unseen = unseenTargets(calls, "Add a task")
    expect(unseen.map((u) => u.split(":")[0])).toEqual([
      "#2 electron_wait_for",
      "#3 electron_click",
      "#4 electron_find",
      "#5 electron_wait_for_window",
      "#6 electron_wait_for",
      "#7 electron_find",
      "#8 electron_eval_renderer"
    ])
    expect(unseen[0]).toContain("data-saved")
    expect(unseen[2]).toContain("task-row")
  })

  it("accepts words of the statement for waits and menu paths, and generic HTML in eval code", () => {
    const calls = [
      { tool: "electron_menu_click", args: { path: ["View", "Toggle Theme"] }, answer: "Clicked View > Toggle Theme" },
      { tool: "electron_wait_for", args: { text: "Order printer toner" }, answer: "appeared" },
      { tool: "electron_eval_renderer", args: { function: "() => document.querySelector('input[type=file]').files.length" }, answer: "0" }
    ]
    expect(unseenTargets(calls, 'Use View > Toggle Theme, then add "Order printer toner"')).toEqual([])
    expect(appIdentifiers('form[aria-label="Add a task"]')).toEqual([])
    expect(appIdentifiers("#task-form .row [data-testid=x]")).toEqual(["task-form", "row", "x"])
  })

  it("reads rows folded in a snapshot and elements a change summary mentions as seen", () => {
    const folded = [
      '  - list "Task list" [ref=e66]:',
      '    - listitem ×2 more like the one above, folded (expand: "e76-e92" shows them); refs of checkbox "Done: …", button "Edit …" in each:',
      "      Prepare Q3 budget review e78 e83"
    ].join("\n")
    const summary = '+ listitem [ref=e463] (9 lines) in list "Task list" [ref=e69]; refs: checkbox "Done: Order printer toner" e465'
    const calls = [
      { tool: "electron_snapshot", args: {}, answer: folded },
      { tool: "electron_find", args: { target: 'role=checkbox[name="Done: Prepare Q3 budget review"]' }, answer: summary },
      { tool: "electron_click", args: { target: "e465" }, answer: "" }
    ]
    expect(unseenTargets(calls, "")).toEqual([])
  })
})

describe("statistics for a verdict over repeats", () => {
  const runs = (variant: string, perTask: ReadonlyArray<readonly [string, ReadonlyArray<boolean>]>, cost = 100) =>
    perTask.flatMap(([task, outcomes]) => outcomes.map((success) => ({ task, variant, success, cost })))

  it("gives each cell its passes and flake rate", () => {
    const cells = cellsOf(
      runs("full", [
        ["a", [true, true, true]],
        ["b", [true, false, true, true, false]]
      ])
    )
    expect(cells.map((c) => [c.task, c.successes, c.runs, c.flakeRate])).toEqual([
      ["a", 3, 3, 0],
      ["b", 3, 5, 0.4]
    ])
  })

  it("computes the Wilson interval (38/40: [0.835, 0.986])", () => {
    const w = wilson(38, 40)
    expect(w.low).toBeCloseTo(0.835, 3)
    expect(w.high).toBeCloseTo(0.986, 3)
  })

  it("cannot say yes on 40 tasks even for a never-failing essential: the task bed's size bounds the ratio", () => {
    const tasks = Array.from({ length: 40 }, (_, i) => [`t${i}`, [true, true, true, true, true]] as const)
    const b = pairBound(runs("essential", tasks, 40), runs("full", tasks, 100))!
    expect(b.ratio).toBe(1)
    expect(b.bootstrapLow).toBe(1)
    expect(b.wilsonLow).toBeCloseTo(40 / (40 + 1.645 ** 2), 6)
    expect(b.ratioLow).toBeLessThan(0.95)
    expect(b.savingLow).toBeCloseTo(0.6, 6)
  })

  it("puts the bound under the point ratio when essential fails some runs, and is deterministic", () => {
    const full = Array.from({ length: 60 }, (_, i) => [`t${i}`, [true, true, true, true, true]] as const)
    const essential = full.map(([t], i) => [t, i < 2 ? [true, false, true, false, true] : [true, true, true, true, true]] as const)
    const a = pairBound(runs("essential", essential), runs("full", full))!
    expect(a.ratio).toBeCloseTo(1 - 4 / 300, 6)
    expect(a.bootstrapLow).toBeLessThan(a.ratio)
    expect(pairBound(runs("essential", essential), runs("full", full))).toEqual(a)
  })

  it("decides on the no-eval pair in both accountings and marks the eval pair as information", () => {
    const result = (task: string, variant: string, success: boolean, eager: number, onDemand: number): TaskResult => ({
      task,
      variant,
      success,
      detail: "",
      fallbacks: [],
      calls: 1,
      failedCalls: 0,
      retries: 0,
      manifestBpe: 0,
      toolsListed: 1,
      responseBpe: 0,
      requestBpe: 0,
      totalBpe: eager,
      eagerBpe: eager,
      onDemandBpe: onDemand,
      wallMs: 1,
      timedOut: false,
      toolsUsed: []
    })
    const results = ["essential", "full", "essential+eval", "full+eval"].flatMap((v) =>
      Array.from({ length: 5 }, (_, i) =>
        result(`t${i}`, v, !(v === "essential" && i === 0), v.startsWith("essential") ? 300 : 1000, v.startsWith("essential") ? 800 : 1000)
      )
    )
    const verdicts = verdictsOf(results)
    expect(verdicts.filter((v) => v.governs).map((v) => v.accounting)).toEqual(["eager", "on demand"])
    expect(verdicts.filter((v) => v.governs).every((v) => !v.becomesDefault)).toBe(true)
    expect(verdicts.find((v) => !v.governs)?.text).toContain("(information")
    const onDemand = decide(results, "x", "essential", "full", "on demand")!
    expect(onDemand.bound.saving).toBeCloseTo(0.2, 6)
  })
})

describe("both accountings", () => {
  const tools = [
    { name: "electron_launch", description: "Start an app", inputSchema: { type: "object", properties: { app: { type: "string" } } } },
    { name: "electron_click", description: "Click", inputSchema: { type: "object", properties: { target: { type: "string" } } } },
    { name: "electron_screenshot", description: "PNG", inputSchema: { type: "object" } }
  ]

  it("eager counts every schema; on demand the names, each used tool's schema once and a search per tool", () => {
    const a = accountingOf({
      manifestBpe: 500,
      instructions: "Start with electron_launch.",
      tools,
      relisted: [],
      toolsUsedInOrder: ["electron_launch", "electron_click", "electron_click"],
      responseBpe: 40,
      requestBpe: 10,
      imageTokens: 0
    })
    const common = bpe("Start with electron_launch.") + 50
    expect(a.eagerBpe).toBe(500 + common)
    expect(a.onDemandBpe).toBe(
      bpe(tools.map((t) => t.name).join("\n")) + bpe(JSON.stringify(tools[0])) + bpe(JSON.stringify(tools[1])) + 2 * SEARCH_CALL_BPE + common
    )
  })

  it("counts an inline image at pixel cost, not its base64 text", () => {
    const png = Buffer.alloc(33)
    png.writeUInt32BE(0x89504e47, 0)
    png.writeUInt32BE(1100, 16)
    png.writeUInt32BE(820, 20)
    expect(pngDims(png.toString("base64"))).toEqual({ width: 1100, height: 820 })
    expect(imageTokens({ width: 1100, height: 820 })).toBe(Math.ceil((1100 * 820) / 750))
    expect(imageTokens({ width: 4000, height: 3000 })).toBeLessThanOrEqual(1534)
    expect(imageTokens(undefined)).toBe(1400)
  })
})

describe("repeats, shards and controls on the command line", () => {
  it("runs each cell --repeats times and the deciding pair --decide-repeats times, repeat by repeat", () => {
    const args = Effect.runSync(
      parseRunArgs(["--tasks", "form-submit,search-read", "--variants", "essential,full,full+eval", "--repeats", "3", "--decide-repeats", "5", "--no-control"])
    )
    const jobs = jobsOf(args)
    const count = (v: string) => jobs.filter((j) => j.variant.name === v).length
    expect([count("essential"), count("full"), count("full+eval")]).toEqual([10, 10, 6])
    expect(jobs.slice(0, 6).every((j) => j.repeat === 1)).toBe(true)
    const shards = [1, 2, 3].map((index) => jobsOf({ ...args, shard: { index, count: 3 } }))
    expect(shards.flat().length).toBe(jobs.length)
  })

  it("runs every control once per task, the wrong-route control only on tasks that name a route", () => {
    const jobs = jobsOf({ tasks: ALL_TASKS, variants: VARIANTS.slice(0, 1), control: true, repeats: 1 })
    const routed = ALL_TASKS.filter((t) => t.wrongRoute !== undefined).length
    expect(routed).toBeGreaterThanOrEqual(7)
    expect(jobs.filter((j) => j.variant.control === true).length).toBe(ALL_TASKS.length * (CONTROLS.length - 1) + routed)
  })
})

describe("retrievability and its gate", () => {
  const tools = [
    { name: "electron_click", description: "Click an element." },
    { name: "electron_web_dialog", description: "Answer the open web dialog (alert, confirm, prompt)." },
    { name: "electron_screenshot", description: "PNG of the active window; with name it is saved to a file." }
  ]
  const items = [
    { intent: "say yes to the confirm dialog", tool: "electron_web_dialog" },
    { intent: "save a picture of the window to a file", tool: "electron_screenshot" },
    { intent: "press the Add task button", tool: "electron_click" }
  ]

  it("ranks by the regex a model would write (name words count double) and by BM25", () => {
    expect(rankByRegex("dismiss the dialog", tools)[0]).toBe("electron_web_dialog")
    const figures = retrievability(items, [{ profile: "full", tools }])
    expect(figures.map((f) => [f.method, f.steps, f.top3])).toEqual([
      ["regex", 3, 3],
      ["bm25", 3, 3]
    ])
  })

  it("refuses a description change that drops top-1 or top-3 beyond the margin, and lets a small one pass", () => {
    const before = retrievability(items, [{ profile: "full", tools }])
    const worse = tools.map((t) => (t.name === "electron_screenshot" ? { ...t, description: "Pixels." } : t))
    const after = retrievability(items, [{ profile: "full", tools: worse }])
    expect(retrievalDrops(before, after).length).toBeGreaterThan(0)
    expect(retrievalDrops(before, before)).toEqual([])
    expect(
      itemsOfSteps([
        { intent: "a", tool: "electron_eval_renderer" },
        { intent: "b", tool: "electron_click" },
        { intent: "b", tool: "electron_click" }
      ])
    ).toEqual([{ intent: "b", tool: "electron_click" }])
  })

  it("keeps held-out tasks' steps out of the baseline's items; the held-out set is the ho2 set, the first set is tuned", () => {
    const heldOut = new Set(ALL_TASKS.filter((t) => t.heldOut === true).map((t) => t.id))
    expect([...heldOut].length).toBe(10)
    expect([...heldOut].every((id) => id.startsWith("ho2-"))).toBe(true)
    expect(ALL_TASKS.filter((t) => t.id.startsWith("ho-")).map((t) => t.heldOut ?? false)).toEqual(Array(10).fill(false))
    const results = [
      { task: "form-submit", steps: [{ intent: "press Add task", tool: "electron_click" }] },
      { task: [...heldOut][0]!, steps: [{ intent: "a held-out intent", tool: "electron_fill" }] }
    ]
    expect(itemsOfSteps(tunedSteps(results, heldOut))).toEqual([{ intent: "press Add task", tool: "electron_click" }])
  })
})
