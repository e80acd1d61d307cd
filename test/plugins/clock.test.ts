/**
 * The clock plugin end to end over MCP on `tasks`: fake time in the windows and the main process, so that
 * a task due today turns overdue and a reminder the main process set for tomorrow fires after advancing a
 * day, without waiting; a main-process timer fires after advance (and not before its time); a window
 * opened after install has the installed clock; pause, resume and uninstall; bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { inMemoryClient, type TestClient } from "../support/mcp.js"
import { launchApp, textUntil } from "./support.js"

let mcp: TestClient

/** Noon UTC: the same calendar day in every time zone from UTC-11 to UTC+11. */
const START = "2030-01-15T12:00:00.000Z"
const START_MS = Date.parse(START)
const DAY = 86_400_000

const clock = (args: Record<string, unknown>) => mcp.call("electron_clock_control", args)

/** Adds a task through the form, with a due date and a reminder ("" none, "1" an hour, "24" a day). */
const addTask = async (title: string, due: string, reminder: "" | "1" | "24") => {
  for (const [tool, args] of [
    ["electron_fill", { target: "testid=task-title-input", value: title }],
    ["electron_fill", { target: "testid=task-due-input", value: due }],
    ["electron_select_option", { target: "testid=task-reminder-select", values: [reminder] }],
    ["electron_click", { target: "testid=add-task-button" }]
  ] as const) {
    const done = await mcp.call(tool, args)
    expect(done.isError, done.text).toBe(false)
  }
  expect(await textUntil(mcp, "notice", (t) => t === `Added "${title}"`)).toBe(`Added "${title}"`)
}

/** The meta line of the task row titled `title`. */
const metaOf = (title: string) =>
  mcp.call("electron_get_text", { target: `css=[data-testid="task-row"]:has([data-testid="task-title"]:text-is("${title}")) [data-testid="task-meta"]` })

beforeAll(async () => {
  mcp = await inMemoryClient({ toolProfile: "full", plugins: ["clock"] })
  await launchApp(mcp)
}, 120_000)

afterAll(async () => {
  await mcp?.close()
})

describe("clock plugin on tasks", () => {
  it("refuses what it cannot do: bad times and durations, a missing by, a clock not installed", async () => {
    expect((await clock({ action: "advance", by: "1d" })).code).toBe("INVALID_ARGUMENT")
    expect((await clock({ action: "advance", by: "1d", target: "main" })).code).toBe("INVALID_ARGUMENT")
    expect((await clock({ action: "install", time: "next tuesday" })).code).toBe("INVALID_ARGUMENT")
    const noBy = await clock({ action: "advance" })
    expect(noBy.code).toBe("INVALID_ARGUMENT")
    expect(noBy.text).toContain("by")
    expect((await clock({ action: "advance", by: "soon" })).code).toBe("INVALID_ARGUMENT")
    expect((await clock({ action: "run", by: "2h" })).code).toBe("INVALID_ARGUMENT")
    expect((await clock({ action: "set" })).code).toBe("INVALID_ARGUMENT")
    expect((await clock({ action: "rewind" })).code).toBe("INVALID_ARGUMENT")
    const status = await clock({ action: "status" })
    expect(status.isError, status.text).toBe(false)
    expect(status.structured).toMatchObject({ renderer: { installed: false }, main: { installed: false } })
  })

  it("install puts every window and the main process at the given time, running", async () => {
    const installed = await clock({ action: "install", time: START })
    expect(installed.isError, installed.text).toBe(false)
    expect(installed.text).toContain("Not faked in main")
    const { renderer, main } = installed.structured
    expect(renderer).toMatchObject({ installed: true, paused: false, windows: [{ window: "w1", faked: true }] })
    expect(main).toMatchObject({ installed: true, paused: false })
    // Running: a little later than the start, far from today.
    expect(renderer.windows[0].now).toBeGreaterThanOrEqual(START_MS)
    expect(renderer.windows[0].now).toBeLessThan(START_MS + 60_000)
    expect(main.now).toBeGreaterThanOrEqual(START_MS)
    expect(main.now).toBeLessThan(START_MS + 60_000)
    // The page's timers set before install keep real time: a reload puts them on the fake clock.
    expect(installed.text).toContain("electron_reload")
    expect((await mcp.call("electron_reload")).isError).toBe(false)
    expect((await mcp.call("electron_wait_for", { target: 'css=body[data-ready="true"]' })).isError).toBe(false)
    const reloaded = await clock({ action: "status", target: "renderer" })
    expect(reloaded.structured.renderer.windows[0]).toMatchObject({ faked: true })
    expect(reloaded.structured.renderer.windows[0].now).toBeLessThan(START_MS + 60_000)
  })

  it("a task due today turns overdue, and its reminder for tomorrow fires, after advancing a day", async () => {
    await addTask("Pay the rent", "2030-01-15", "24")
    expect((await metaOf("Pay the rent")).text).toContain("due 2030-01-15")
    // The main process set the reminder on its fake clock: due a day after the fake now.
    expect(await textUntil(mcp, "reminder-result", (t) => t.startsWith("Reminder set for"))).toMatch(/^Reminder set for .*2030/)
    const advanced = await clock({ action: "advance", by: "1d" })
    expect(advanced.isError, advanced.text).toBe(false)
    expect(advanced.structured.main.fired).toBeGreaterThanOrEqual(1)
    expect(advanced.structured.main.now).toBeGreaterThanOrEqual(START_MS + DAY)
    expect(advanced.structured.renderer.windows[0].now).toBeGreaterThanOrEqual(START_MS + DAY)
    expect(await textUntil(mcp, "reminder-result", (t) => t === "Reminder: Pay the rent")).toBe("Reminder: Pay the rent")
    // The renderer's every-minute check ran at the new time.
    expect((await metaOf("Pay the rent")).text).toContain("overdue 2030-01-15")
  })

  it("a main-process timer fires when the clock reaches its time, not before", async () => {
    const paused = await clock({ action: "pause" })
    expect(paused.isError, paused.text).toBe(false)
    expect(paused.structured.main.paused).toBe(true)
    expect(paused.structured.renderer.paused).toBe(true)
    await addTask("Call the plumber", "2030-01-20", "1")
    expect(await textUntil(mcp, "reminder-result", (t) => t.startsWith("Reminder set for"))).toMatch(/^Reminder set for/)
    // Paused: the main process's time stands still between two reads.
    const first = (await clock({ action: "status", target: "main" })).structured.main.now
    const second = (await clock({ action: "status", target: "main" })).structured.main.now
    expect(second).toBe(first)
    const half = await clock({ action: "advance", by: "59m", target: "main" })
    expect(half.isError, half.text).toBe(false)
    expect(half.structured.main.now).toBe(first + 59 * 60_000)
    expect((await mcp.call("electron_get_text", { target: "testid=reminder-result" })).text).toMatch(/^Reminder set for/)
    const rest = await clock({ action: "run", by: "1m", target: "main" })
    expect(rest.isError, rest.text).toBe(false)
    expect(rest.structured.main.fired).toBeGreaterThanOrEqual(1)
    expect(await textUntil(mcp, "reminder-result", (t) => t === "Reminder: Call the plumber")).toBe("Reminder: Call the plumber")
    const resumed = await clock({ action: "resume" })
    expect(resumed.structured).toMatchObject({ renderer: { paused: false }, main: { paused: false } })
  })

  it("a window opened after install gets the installed clock", async () => {
    const before = await clock({ action: "status" })
    expect((await mcp.call("electron_click", { target: "testid=open-settings" })).isError).toBe(false)
    const settings = await mcp.call("electron_wait_for_window", { title: "Settings", select: false })
    expect(settings.isError, settings.text).toBe(false)
    const id = settings.structured.window.id
    const both = await clock({ action: "status" })
    const opened = both.structured.renderer.windows.find((w: any) => w.window === id)
    expect(opened).toMatchObject({ faked: true })
    expect(opened.now).toBeGreaterThanOrEqual(before.structured.renderer.windows[0].now)
    expect(opened.now).toBeLessThan(START_MS + 2 * DAY)
    expect((await mcp.call("electron_window_close", { window: id })).isError).toBe(false)
  })

  it("set jumps without firing; fixed keeps Date at the time", async () => {
    const fixed = await clock({ action: "set", time: "2031-06-01T08:00:00Z", fixed: true })
    expect(fixed.isError, fixed.text).toBe(false)
    expect(fixed.structured.main).toMatchObject({ fixed: true, now: Date.parse("2031-06-01T08:00:00Z") })
    expect(fixed.structured.renderer.windows[0].now).toBe(Date.parse("2031-06-01T08:00:00Z"))
    const again = await clock({ action: "status" })
    expect(again.structured.main.now).toBe(Date.parse("2031-06-01T08:00:00Z"))
    const back = await clock({ action: "set", time: START })
    expect(back.structured.main).toMatchObject({ fixed: false })
    expect(back.structured.main.now).toBeGreaterThanOrEqual(START_MS)
  })

  it("uninstall gives back real time; a pending main-process timer moves to a real timer", async () => {
    await clock({ action: "pause" })
    await addTask("Water the garden", "2030-02-01", "24")
    expect(await textUntil(mcp, "reminder-result", (t) => t.startsWith("Reminder set for"))).toMatch(/^Reminder set for/)
    const removed = await clock({ action: "uninstall" })
    expect(removed.isError, removed.text).toBe(false)
    expect(removed.structured.main.installed).toBe(false)
    expect(removed.structured.main.moved).toBeGreaterThanOrEqual(1)
    expect(removed.structured.renderer.installed).toBe(false)
    const now = Date.now()
    expect(Math.abs(removed.structured.main.now - now)).toBeLessThan(60_000)
    expect(Math.abs(removed.structured.renderer.windows[0].now - now)).toBeLessThan(60_000)
    // The page's timers run on real time again: the late panel's kind of setTimeout works after a reload.
    expect((await mcp.call("electron_reload")).isError).toBe(false)
    expect((await mcp.call("electron_wait_for", { target: 'css=body[data-ready="true"]' })).isError).toBe(false)
    expect((await mcp.call("electron_wait_for", { target: "testid=late-panel" })).isError).toBe(false)
    expect((await clock({ action: "advance", by: "1h" })).code).toBe("INVALID_ARGUMENT")
  })

  it("an app quits with its clocks paused: the main-process clock steps aside at before-quit", async () => {
    expect((await clock({ action: "install", time: START })).isError).toBe(false)
    expect((await clock({ action: "pause" })).structured.main.paused).toBe(true)
    const closed = await mcp.call("electron_close")
    expect(closed.isError, closed.text).toBe(false)
    expect((await clock({ action: "status" })).code).toBe("APP_NOT_RUNNING")
  })
})
