/**
 * Windows that take no input, end to end over MCP with `--tool-profile essential`, on the modals fixture app
 * (test/fixtures/apps/modals): a modal child window (`parent`, `modal: true`, shown on ready-to-show) is a row in the
 * answer of the click that opened it and the active window moves to it; input to its parent is refused while it is
 * open (a user's would not land) and reads of the parent still work; Done in it closes it and the parent is active
 * again; its Close row closes it; Enter/Escape go to its page, not to the row; a window the app disables itself
 * (setEnabled(false)) refuses input until the app enables it again.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { join } from "node:path"
import { packageRoot } from "../../src/layers/driver/electron-runtime.js"
import { activityLines } from "../support/activity.js"
import { callUntil, freshUserData, inMemoryClient, type TestClient, type ToolCallOutcome } from "../support/mcp.js"

const app = join(packageRoot(), "test", "fixtures", "apps", "modals")
const userData = freshUserData()
const LOCK_MS = 4_000
let mcp: TestClient

/** The ref of the row `- <role> "<name>" … [ref=dN]` in an answer. */
const refOf = (text: string, role: string, name: string): string => {
  const match = new RegExp(`- ${role} "${name}"[^\\n]*\\[ref=(d\\d+)\\]`).exec(text)
  expect(match, `no ${role} "${name}" row in:\n${text}`).not.toBeNull()
  return match![1]!
}

const ok = async (tool: string, args: Record<string, unknown> = {}) => {
  const result = await mcp.call(tool, args)
  expect(result.isError, result.text).toBe(false)
  return result
}

/**
 * Opens Preferences from the main window; returns the first answer that shows its row. The click's answer waits, by
 * event and within a bound, for the modal window to show, so it usually carries the row; a loaded machine may exceed
 * that bound (the next answer then shows it), or cut the click
 * while its events are under way (OPERATION_FAILED with `performed`: the first try's one-second slice,
 * src/layers/driver/actions.ts), after which, as its hint says, the next answer shows whether it landed, and it is
 * clicked again if not.
 */
const openPrefs = async (): Promise<string> => {
  const seen: Array<string> = []
  const shown = (text: string) =>
    /- dialog "modal window: Preferences" \[modal\] \(in w1; w1 takes no input until it closes; its page is w\d+, the active window\):/.test(text)
  const settled = () => shown(seen.at(-1) ?? "")
  // At most three clicks (a click cut on a loaded machine may not have landed; the app opens one window at most).
  for (let attempt = 0; attempt < 3 && !settled(); attempt++) {
    const clicked = await mcp.call("electron_click", { target: "testid=prefs" })
    seen.push(clicked.isError ? "" : clicked.text)
    // Until an answer shows the row with its page (the click's own, usually), the next answers are read.
    if (!settled()) await Effect.runPromise(callUntil(mcp, "electron_snapshot", {}, (r) => (seen.push(r.text), settled()), 5_000))
  }
  const all = seen.join("\n")
  expect(shown(seen.at(-1) ?? ""), all).toBe(true)
  return seen.at(-1)!
}

type Listed = { readonly windows: ReadonlyArray<{ readonly id: string; readonly title: string; readonly active: boolean }> }
const activeOf = (result: ToolCallOutcome) => (result.structured as Listed).windows.find((w) => w.active)?.id

const activeWindow = async () => activeOf(await ok("electron_windows"))

beforeAll(async () => {
  mcp = await inMemoryClient({ toolProfile: "essential" })
  await ok("electron_launch", { app, env: { SAMPLE_APP_USER_DATA: userData, MODALS_LOCK_MS: String(LOCK_MS) } })
  await ok("electron_wait_for", { target: 'css=body[data-ready="true"]', state: "attached" })
})

afterAll(async () => {
  await mcp?.close()
})

describe("a modal child window (essential)", () => {
  it("is a row in the click's answer, with its page made the active window", async () => {
    const answers = await openPrefs()
    const page = /its page is (w\d+)/.exec(answers)![1]
    expect(page).not.toBe("w1")
    expect(answers).toMatch(/- button "Close" \[ref=d\d+\]/)
    // Its row names its page: the answer does not tell it again as a window opened.
    expect(answers).not.toContain("Windows: opened")
    expect(await activeWindow()).toBe(page)
    // The agent reads and acts in it as in any window; the row is in its structured content too.
    const snapshot = await ok("electron_snapshot")
    expect(snapshot.text).toContain('heading "Preferences"')
    const modals = (snapshot.structured as { modals?: Array<Record<string, unknown>> }).modals
    expect(modals).toEqual([expect.objectContaining({ kind: "window", surface: "w1", page, text: "Preferences" })])
    await ok("electron_check", { target: "testid=compact" })
  })

  it("refuses input to the window it disables, and still reads it", async () => {
    await ok("electron_select_window", { window: "w1" })
    const refused = await mcp.call("electron_click", { target: "testid=count" })
    expect(refused.isError).toBe(true)
    expect(refused.text).toMatch(/NOT_INTERACTABLE: w1 takes no input while its modal window "Preferences" \((w\d+)\) is open/)
    expect(refused.text).toMatch(/Act in w\d+ \(electron_select_window window=w\d+\), or close it: electron_click d\d+\./)
    for (const [tool, args] of [
      ["electron_type", { text: "x" }],
      ["electron_press_key", { key: "Tab" }],
      ["electron_fill", { target: "testid=draft", value: "typed past the modal" }]
    ] as const) {
      const result = await mcp.call(tool, args)
      expect(result.text, tool).toMatch(/^NOT_INTERACTABLE: w1 takes no input/)
    }
    // Reads of the parent work, and nothing reached its page.
    await ok("electron_expect_text", { target: "testid=counted", text: "0" })
    await ok("electron_expect_value", { target: "testid=draft", value: "Notes for Monday" })
  })

  it("closes when the app closes it (Done); the window it disabled is active again and takes input", async () => {
    const listed = await ok("electron_windows")
    const page = (listed.structured as Listed).windows.find((w) => w.title === "Preferences")!.id
    await ok("electron_select_window", { window: page })
    const done = await ok("electron_click", { target: "testid=done" })
    await expect.poll(() => activityLines(userData, "preferences"), { timeout: 10_000 }).toEqual(["preferences compact on"])
    // The app closed it while answering the click's IPC: once its page is gone, the window it disabled is active again,
    // and an answer says so once (the click's own, which waits for the page to go within a bound, or the next one).
    const answers = [done.text]
    await Effect.runPromise(
      callUntil(mcp, "electron_snapshot", {}, (r) => {
        answers.push(r.text)
        return r.text.startsWith('w1 "Modals Demo"')
      })
    )
    const told = answers.filter((text) => text.includes(`\nWindows: closed ${page}; the active window is w1.`))
    expect(told, answers.join("\n---\n")).toHaveLength(1)
    const next = await ok("electron_windows")
    expect((next.structured as Listed).windows.map((w) => `${w.id}${w.active ? "*" : ""}`)).toEqual(["w1*"])
    await ok("electron_expect_text", { target: "testid=result", text: "compact: on" })
    await ok("electron_click", { target: "testid=count" })
    await ok("electron_expect_text", { target: "testid=counted", text: "1" })
  })

  it("Enter and Escape go to its page; its Close row closes it like its close button", async () => {
    const answers = await openPrefs()
    const escaped = await ok("electron_press_key", { key: "Escape" })
    expect(escaped.text).not.toContain("Closed the modal window")
    const closed = await ok("electron_click", { target: refOf(answers, "button", "Close") })
    expect(closed.text).toMatch(/^Closed the modal window "Preferences"; the active window is w1\./)
    expect(closed.text).not.toContain("modal window: Preferences")
    // The answer says where the agent is: no window line repeats it.
    expect(closed.text).not.toContain("Windows:")
    await ok("electron_click", { target: "testid=count" })
    await ok("electron_expect_text", { target: "testid=counted", text: "2" })
    // Nothing was chosen: the app recorded no second choice.
    expect(activityLines(userData, "preferences")).toEqual(["preferences compact on"])
  })
})

describe("a window the app disables itself (essential)", () => {
  it("refuses input until the app enables it again", async () => {
    await ok("electron_click", { target: "testid=lock" })
    await ok("electron_expect_text", { target: "testid=result", text: `locked for ${LOCK_MS} ms` })
    const refused = await mcp.call("electron_click", { target: "testid=count" })
    expect(refused.text).toMatch(/^NOT_INTERACTABLE: w1 takes no input: the app disabled its window \(setEnabled\(false\)\)/)
    await ok("electron_expect_text", { target: "testid=counted", text: "2" })
    // Once the app enables it (its own timer), the same click lands.
    const landed = await Effect.runPromise(callUntil(mcp, "electron_click", { target: "testid=count" }, (r) => !r.isError, LOCK_MS + 10_000))
    expect(landed.isError, landed.text).toBe(false)
    await ok("electron_expect_text", { target: "testid=counted", text: "3" })
  })
})
