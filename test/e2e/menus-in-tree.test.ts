/**
 * Issue 35 items 3 and 4 end to end over MCP with the essential profile only, on the `tasks` sample app:
 * the application menu as one collapsed snapshot row whose refs electron_click expands and clicks (the
 * effect checked from the app's saved settings), a computed style read with electron_find, a console error
 * and a page error reported in the answer of the action that caused them, waiting for a new window with
 * electron_wait_for, and a screenshot saved to a file.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import { existsSync, readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import { sampleAppPath } from "../../src/samples.js"
import { freshUserData, inMemoryClient, type TestClient } from "../support/mcp.js"

let mcp: TestClient
let userData: string
let outputDir: string

const settings = (): { theme?: string } | undefined => {
  const file = join(userData, "settings.json")
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as { theme?: string }) : undefined
}

/** Polls the app's saved settings (what the app itself wrote) until `done` holds, 10 s at most. */
const settled = (done: (s: { theme?: string } | undefined) => boolean) =>
  Effect.runPromise(
    Effect.sync(settings).pipe(
      Effect.filterOrFail(done, () => "not yet" as const),
      Effect.retry(Schedule.spaced("100 millis")),
      Effect.timeout("10 seconds"),
      Effect.orElseSucceed(() => settings())
    )
  )

beforeAll(async () => {
  userData = freshUserData()
  outputDir = freshUserData()
  mcp = await inMemoryClient({ toolProfile: "essential", outputDir })
  const launched = await mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: userData } })
  expect(launched.isError, launched.text).toBe(false)
  const ready = await mcp.call("electron_wait_for", { target: 'css=body[data-ready="true"]', state: "attached" })
  expect(ready.isError, ready.text).toBe(false)
})

afterAll(async () => {
  await mcp?.close()
  rmSync(userData, { recursive: true, force: true })
  rmSync(outputDir, { recursive: true, force: true })
})

/** The ref of the row or item labelled `label` in a snapshot or a menu listing. */
const refOf = (text: string, label: string): string => {
  const row = new RegExp(`(?:^|[ "])${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}"?(?: \\[(?:checked|unchecked|disabled)\\])* \\[ref=(m\\d+)\\]`, "m").exec(
    text
  )
  expect(row, `${label} in:\n${text}`).not.toBeNull()
  return row![1]!
}

describe("the application menu in the tree (essential profile)", () => {
  it("a snapshot carries the menu as one collapsed row; clicking refs lists a menu and triggers an item", async () => {
    const snapshot = await mcp.call("electron_snapshot")
    expect(snapshot.isError, snapshot.text).toBe(false)
    const row = snapshot.text.split("\n").find((line) => line.startsWith("- menubar:"))
    expect(row, snapshot.text.slice(0, 400)).toBeDefined()
    expect(row).toMatch(/^- menubar: File \[ref=m\d+\] · Edit \[ref=m\d+\] · View \[ref=m\d+\] · Help \[ref=m\d+\]$/)
    expect(snapshot.text.split("\n").filter((line) => /\[ref=m\d+\]/.test(line))).toHaveLength(1)

    const view = await mcp.call("electron_click", { target: refOf(row!, "View") })
    expect(view.isError, view.text).toBe(false)
    expect(view.text).toMatch(/- menuitem "Toggle Theme" \[ref=m\d+\] CmdOrCtrl\+Shift\+T/)
    expect(view.text).toContain("- separator")
    expect(settings()?.theme ?? "light").not.toBe("dark")

    const toggled = await mcp.call("electron_click", { target: refOf(view.text, "Toggle Theme") })
    expect(toggled.isError, toggled.text).toBe(false)
    expect(toggled.text).toContain("Clicked menu item View > Toggle Theme")
    expect((await settled((s) => s?.theme === "dark"))?.theme).toBe("dark")

    // The same refs stay valid in the next snapshot; a menu ref is no page ref.
    const again = await mcp.call("electron_snapshot")
    expect(again.text).toContain(row!)
    const fill = await mcp.call("electron_fill", { target: refOf(row!, "File"), value: "x" })
    expect(fill.code).toBe("INVALID_ARGUMENT")
    expect(fill.text).toContain("electron_click")
    const unknown = await mcp.call("electron_click", { target: "m999" })
    expect(unknown.code).toBe("REF_STALE")
    expect(unknown.text).toContain("menubar row of electron_snapshot")
  })
})

describe("reach without new tools (essential profile)", () => {
  it("electron_find reads computed styles of the elements it finds", async () => {
    const found = await mcp.call("electron_find", { target: "testid=crash-button", style: ["background-color", "cursor"] })
    expect(found.isError, found.text).toBe(false)
    expect(found.text).toMatch(/button "Crash handler" \[ref=e\d+\](?: \[[^\]]*\])* \{background-color: rgba?\([^)]*\); cursor: \w+\}/)
    expect(Object.keys(found.structured.items[0].style)).toEqual(["background-color", "cursor"])
    const page = await mcp.call("electron_find", { target: "css=body", style: ["background-color"] })
    expect(page.structured.items[0].style["background-color"]).toMatch(/^rgba?\(/)
  })

  it("a console error and a page error are reported in the answer of the click that caused them, once", async () => {
    const crash = await mcp.call("electron_click", { target: "testid=crash-button" })
    expect(crash.isError, crash.text).toBe(false)
    expect(crash.text).toMatch(/^Console error \(w1\): \[tasks\] crash handler is about to throw$/m)
    expect(crash.text).toMatch(/^Page error \(w1\): Crash handler button: simulated uncaught error$/m)
    expect(crash.structured.newErrors.count).toBe(2)
    const next = await mcp.call("electron_find", { target: "testid=crash-button" })
    expect(next.text).not.toContain("crash handler is about to throw")
    expect(next.structured.newErrors).toBeUndefined()
  })

  it("an error logged after the action answered is told by the next call, the wait for its effect", async () => {
    const clicked = await mcp.call("electron_click", { target: "testid=load-broken" })
    expect(clicked.isError, clicked.text).toBe(false)
    const waited = await mcp.call("electron_wait_for", { text: "Quote failed" })
    expect(waited.isError, waited.text).toBe(false)
    const told = [clicked.text, waited.text].flatMap((t) => t.split("\n")).filter((l) => l.startsWith("Console error (w1): "))
    // Chromium logs the failed request too ("Failed to load resource: … 500"); the app's own error is told once.
    expect(
      told.filter((l) => /HTTP 500.*Intentional failure from \/api\/broken/.test(l)),
      told.join("\n")
    ).toHaveLength(1)
    expect(new Set(told).size).toBe(told.length)
  })

  it("electron_wait_for waits for a new window by title and makes it active", async () => {
    const opened = await mcp.call("electron_click", { target: "testid=open-settings" })
    expect(opened.isError, opened.text).toBe(false)
    const waited = await mcp.call("electron_wait_for", { window: "Settings", text: "Settings" })
    expect(waited.isError, waited.text).toBe(false)
    expect(waited.text).toMatch(/^window w\d+ "Settings" is active; "Settings" appeared after \d+ ms\.$/m)
    expect((await mcp.call("electron_windows")).text).toMatch(/^\* w\d+ "Settings"/m)
    const missing = await mcp.call("electron_wait_for", { window: "No such window", timeoutMs: 300 })
    expect(missing.code).toBe("TIMEOUT")
    const back = await mcp.call("electron_select_window", { window: "w1" })
    expect(back.isError, back.text).toBe(false)
  })

  it("electron_screenshot is in essential and saves a screenshot of one element to a file", async () => {
    const shot = await mcp.call("electron_screenshot", { target: "testid=crash-button", name: "crash-button.png" })
    expect(shot.isError, shot.text).toBe(false)
    const path = shot.structured.path as string
    expect(path).toBe(join(outputDir, "crash-button.png"))
    const png = readFileSync(path)
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG")
    expect(png.readUInt32BE(16)).toBeGreaterThan(10)
  })
})
