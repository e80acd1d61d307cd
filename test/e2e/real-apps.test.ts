/**
 * What real apps do, seen through MCP (issue 12, the server part), on the `tasks` app over the in-memory
 * pair: a shortcut handled in main with before-input-event, a context menu popped up with Menu.popup from
 * the app's context-menu handler (listed by electron_menu, clicked with electron_menu_click), a window whose
 * load failed (reported by electron_errors, matched by electron_wait_for_window) and an unhandled
 * rejection in the main process. Runs on the stand-in, or on a real Electron through STAGEWRIGHT_ELECTRON.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { sampleAppPath } from "../../src/samples.js"
import { packageRoot } from "../../src/layers/driver/electron-runtime.js"
import { mainConsoleError } from "../../src/layers/driver/main-console.js"
import { runNode } from "../support/cli.js"
import { callUntil, freshUserData, inMemoryClient, type TestClient, type ToolCallOutcome } from "../support/mcp.js"

let mcp: TestClient

const call = (tool: string, args: Record<string, unknown> = {}) => Effect.promise(() => mcp.call(tool, args))

const until = (tool: string, args: Record<string, unknown>, done: (result: ToolCallOutcome) => boolean) => callUntil(mcp, tool, args, done)

const row = (title: string) => `css=[data-testid="task-row"]:has-text(${JSON.stringify(title)})`

beforeAll(async () => {
  mcp = await inMemoryClient({ allowEval: ["main"] })
  const launched = await mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } })
  expect(launched.isError, launched.text).toBe(false)
  const loaded = await mcp.call("electron_wait_for", { target: 'css=body[data-ready="true"]' })
  expect(loaded.isError, loaded.text).toBe(false)
})

afterAll(async () => {
  await mcp?.close()
})

describe("keys reach before-input-event handlers in main", () => {
  it.live("Ctrl+K, handled in main, focuses the search field; keys main lets through still type", () =>
    Effect.gen(function* () {
      const focus = yield* call("electron_click", { target: "testid=task-title-input" })
      expect(focus.isError, focus.text).toBe(false)
      const typed = yield* call("electron_press_key", { key: "x" })
      expect(typed.isError, typed.text).toBe(false)
      // The key went through main (no shortcut there) and was replayed to the page: it typed.
      const value = yield* call("electron_expect_value", { target: "testid=task-title-input", value: "x" })
      expect(value.isError, value.text).toBe(false)

      const pressed = yield* call("electron_press_key", { key: "Control+k" })
      expect(pressed.isError, pressed.text).toBe(false)
      const notice = yield* until("electron_get_text", { target: "testid=notice" }, (r) => r.text.includes("Search focused (Ctrl+K)"))
      expect(notice.text).toContain("Search focused (Ctrl+K)")
      const focused = yield* call("electron_expect_state", { target: "testid=search-input", state: { focused: true } })
      expect(focused.isError, focused.text).toBe(false)
      // main prevented Ctrl+K: the page never got it, so the title field kept its text and lost focus.
      const kept = yield* call("electron_expect_value", { target: "testid=task-title-input", value: "x" })
      expect(kept.isError, kept.text).toBe(false)
      const log = yield* call("electron_console", { source: "main", text: "shortcut: focus search" })
      expect(log.structured.messages.length).toBeGreaterThanOrEqual(1)
    })
  )
})

describe("context menus popped up by the app", () => {
  it.live("right-click a task row → the app's menu is listed → Mark as done is clicked → the task is done", () =>
    Effect.gen(function* () {
      const before = yield* call("electron_menu")
      expect(before.isError, before.text).toBe(false)
      expect(before.structured.contextMenu).toBeNull()
      const undone = yield* call("electron_expect_state", { target: 'role=checkbox[name="Done: Renew passport"]', state: { checked: false } })
      expect(undone.isError, undone.text).toBe(false)

      const right = yield* call("electron_click", { target: row("Renew passport"), button: "right" })
      expect(right.isError, right.text).toBe(false)
      // The app pops its menu from its context-menu handler, after the click returned.
      const listed = yield* until("electron_menu", {}, (r) => r.structured?.contextMenu != null)
      expect(listed.isError, listed.text).toBe(false)
      expect(listed.structured.contextMenu.window).toBe("w1")
      expect(listed.structured.contextMenu.items.map((i: { label: string }) => i.label)).toEqual(["Mark as done", "Move to top", "", "Copy title"])
      expect(listed.text).toMatch(/Context menu \(open, in w1[^)]*\):\n {2}Mark as done \[id=ctx-toggle-done\]/)
      expect(listed.text).toMatch(/^File$/m) // the application menu is still listed first

      const clicked = yield* call("electron_menu_click", { path: ["Mark as done"] })
      expect(clicked.isError, clicked.text).toBe(false)
      expect(clicked.structured).toMatchObject({ menu: "context", path: ["Mark as done"], id: "ctx-toggle-done" })
      const done = yield* call("electron_expect_state", { target: 'role=checkbox[name="Done: Renew passport"]', state: { checked: true } })
      expect(done.isError, done.text).toBe(false)
      const result = yield* call("electron_expect_text", { target: "testid=notice", text: 'Completed "Renew passport"' })
      expect(result.isError, result.text).toBe(false)

      // Clicking closed the popup: it is no longer listed, and its items can no longer be clicked.
      const after = yield* call("electron_menu")
      expect(after.structured.contextMenu).toBeNull()
      const stale = yield* call("electron_menu_click", { path: ["Move to top"] })
      expect(stale.code).toBe("ELEMENT_NOT_FOUND")
    })
  )

  it.live("a context menu item is clicked by id; the app menu stays clickable while one is open", () =>
    Effect.gen(function* () {
      const right = yield* call("electron_click", { target: row("Book dentist appointment"), button: "right" })
      expect(right.isError, right.text).toBe(false)
      const listed = yield* until("electron_menu", {}, (r) => r.structured?.contextMenu != null)
      expect(listed.structured.contextMenu?.items?.[0]?.label).toBe("Mark as done")
      const byId = yield* call("electron_menu_click", { id: "ctx-copy-title" })
      expect(byId.isError, byId.text).toBe(false)
      // What the app copied is told once, with the answer of the action that made it copy (no clipboard tool needed).
      expect(byId.text).toContain("Clicked context menu item Copy title.")
      expect(byId.text).toContain('(clipboard: the app copied "Book dentist appointment")')
      const clip = yield* call("electron_clipboard", { action: "read" })
      expect(clip.text).toBe("Book dentist appointment")
      // Our own write is not told as the app's copy, and a told copy is not told again.
      const written = yield* call("electron_clipboard", { action: "write", text: "set by the agent" })
      expect(written.isError, written.text).toBe(false)
      const quiet = yield* call("electron_snapshot")
      expect(quiet.text).not.toContain("the app copied")
      const appMenu = yield* call("electron_menu_click", { id: "new-task" })
      expect(appMenu.isError, appMenu.text).toBe(false)
      expect(appMenu.structured.menu).toBe("app")
    })
  )
})

describe("a context-menu click in an exported test", () => {
  it("electron_export_test replays right-click → Mark as done with Playwright Test", async () => {
    const outputDir = join(packageRoot(), "stagewright-output", `e2e-real-${process.pid}`)
    mkdirSync(outputDir, { recursive: true })
    const data = freshUserData()
    const session = await inMemoryClient({ outputDir })
    try {
      const steps: Array<[string, Record<string, unknown>]> = [
        ["electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: data } }],
        ["electron_wait_for", { target: 'css=body[data-ready="true"]' }],
        ["electron_expect_state", { target: 'role=checkbox[name="Done: Renew passport"]', state: { checked: false } }],
        ["electron_click", { target: row("Renew passport"), button: "right" }]
      ]
      for (const [tool, args] of steps) {
        const result = await session.call(tool, args)
        expect(result.isError, `${tool}: ${result.text}`).toBe(false)
      }
      await Effect.runPromise(callUntil(session, "electron_menu", {}, (r) => r.structured?.contextMenu != null))
      expect((await session.call("electron_menu_click", { path: ["Mark as done"] })).isError).toBe(false)
      expect((await session.call("electron_expect_state", { target: 'role=checkbox[name="Done: Renew passport"]', state: { checked: true } })).isError).toBe(
        false
      )
      const exported = await session.call("electron_export_test", { name: "context-menu" })
      expect(exported.isError, exported.text).toBe(false)
      const code = readFileSync(exported.structured.path as string, "utf8")
      expect(code).toContain("// context menu Mark as done")
      expect(code).toContain("__stagewright?.popup?.open")
      await session.call("electron_close")
      // The replay starts from the seeded board, as the session did.
      rmSync(data, { recursive: true, force: true })
      mkdirSync(data)
      const config = join(outputDir, "replay.config.mjs")
      writeFileSync(config, "export default { timeout: 120_000, expect: { timeout: 15_000 } }\n")
      const replay = await runNode(
        [
          join(packageRoot(), "node_modules", "@playwright", "test", "cli.js"),
          "test",
          "context-menu.spec.ts",
          `--config=${config}`,
          "--reporter=line",
          "--workers=1",
          `--output=${join(outputDir, "results")}`
        ],
        { cwd: outputDir, timeoutMs: 240_000, env: { ...process.env, CI: "1" } }
      )
      expect(replay.status, replay.stdout + replay.stderr).toBe(0)
      expect(replay.stdout).toMatch(/1 passed/)
    } finally {
      await session.close()
      rmSync(outputDir, { recursive: true, force: true })
    }
  }, 300_000)
})

describe("failures the main process sees", () => {
  it.live("a failed load: electron_errors reports it with its window, and wait_for_window matches the URL it tried", () =>
    Effect.gen(function* () {
      const clicked = yield* call("electron_click", { target: "testid=open-offline-button" })
      expect(clicked.isError, clicked.text).toBe(false)
      const waited = yield* call("electron_wait_for_window", { url: "127.0.0.1:2", select: false })
      expect(waited.isError, waited.text).toBe(false)
      // The window shows Chromium's error document: it matched by the URL it tried to load.
      expect(waited.structured.window.url).toMatch(/^chrome-error:/)
      const failedWindow = waited.structured.window.id as string
      expect(failedWindow).not.toBe("w1")
      const errors = yield* until("electron_errors", {}, (r) =>
        (r.structured?.errors ?? []).some((e: { kind: string; window?: string }) => e.kind === "load-failed" && e.window !== undefined)
      )
      const failed = errors.structured.errors.find((e: { kind: string }) => e.kind === "load-failed")
      expect(failed).toMatchObject({ kind: "load-failed", url: "http://127.0.0.1:2/", error: "ERR_CONNECTION_REFUSED", code: -102, window: failedWindow })
      expect(errors.text).toMatch(/load-failed w\d+: Failed to load http:\/\/127\.0\.0\.1:2\/: ERR_CONNECTION_REFUSED \(-102\)/)
      // The app itself behaves as without Stagewright: its own did-fail-load handler ran.
      const shown = yield* call("electron_expect_text", { target: "testid=load-result", text: "Load failed: ERR_CONNECTION_REFUSED (-102)" })
      expect(shown.isError, shown.text).toBe(false)

      // A wait that times out lists the windows it saw, the failed one with the URL it tried.
      const none = yield* call("electron_wait_for_window", { url: "never.example", timeoutMs: 400 })
      expect(none.code).toBe("TIMEOUT")
      expect(none.text).toMatch(/open windows: .*w1 "Tasks[^"]*" file:\/\//)
      expect(none.text).toMatch(new RegExp(`${failedWindow} "[^"]*" chrome-error://chromewebdata/ \\(failed to load http://127\\.0\\.0\\.1:2/\\)`))
      expect(none.structured.error.windows).toContainEqual(expect.objectContaining({ id: failedWindow, failedUrl: "http://127.0.0.1:2/" }))

      // electron_windows says which URL failed; electron_select_window finds the window by it too.
      const listed = yield* call("electron_windows")
      expect(listed.structured.windows).toContainEqual(expect.objectContaining({ id: failedWindow, failedUrl: "http://127.0.0.1:2/" }))
      expect(listed.text).toContain(`${failedWindow} "`)
      expect(listed.text).toContain("chrome-error://chromewebdata/ (failed to load http://127.0.0.1:2/)")
      const selected = yield* call("electron_select_window", { url: "127.0.0.1:2" })
      expect(selected.isError, selected.text).toBe(false)
      expect(selected.structured.window.id).toBe(failedWindow)
      expect((yield* call("electron_select_window", { window: "w1" })).isError).toBe(false)
    })
  )

  it.live("an unhandled rejection in the main process is reported, and the app keeps running", () =>
    Effect.gen(function* () {
      const evaluated = yield* call("electron_eval_main", { function: '() => { Promise.reject(new Error("boom")); return 1 }' })
      expect(evaluated.isError, evaluated.text).toBe(false)
      const errors = yield* until("electron_errors", {}, (r) => (r.structured?.errors ?? []).some((e: { kind: string }) => e.kind === "rejection"))
      const rejections = errors.structured.errors.filter((e: { kind: string }) => e.kind === "rejection")
      // One entry per rejection: Node's generic follow-up line is not a second error.
      expect(rejections).toHaveLength(1)
      expect(rejections[0].message).toBe("unhandled promise rejection in main: Error: boom")
      expect(rejections[0].stack).toMatch(/^Error: boom\n\s+at /)
      const status = yield* call("electron_status")
      expect(status.structured.app).toMatchObject({ state: "running" })
    })
  )
})

describe("the main console's warnings (how real Electron prints them too)", () => {
  it("a failed load and an unhandled rejection are recognised; Node's follow-up line and the app's own lines are not errors", () => {
    const hint = "\n(Use `electron --trace-warnings ...` to show where the warning was created)"
    expect(mainConsoleError(`(node:42) electron: Failed to load URL: https://nowhere.invalid/a?b=1 with error: ERR_NAME_NOT_RESOLVED${hint}`)).toEqual({
      kind: "load-failed",
      message: "Failed to load https://nowhere.invalid/a?b=1: ERR_NAME_NOT_RESOLVED (-105)",
      url: "https://nowhere.invalid/a?b=1",
      error: "ERR_NAME_NOT_RESOLVED",
      code: -105
    })
    expect(mainConsoleError("(node:42) electron: Failed to load URL: file:///x.html with error: ERR_SOMETHING_NEW")).toEqual({
      kind: "load-failed",
      message: "Failed to load file:///x.html: ERR_SOMETHING_NEW",
      url: "file:///x.html",
      error: "ERR_SOMETHING_NEW"
    })
    expect(mainConsoleError(`(node:7) UnhandledPromiseRejectionWarning: Error: boom\n    at main.js:3:9${hint}`)).toEqual({
      kind: "rejection",
      message: "unhandled promise rejection in main: Error: boom",
      stack: "Error: boom\n    at main.js:3:9"
    })
    expect(mainConsoleError("(node:7) UnhandledPromiseRejectionWarning: plain string")).toEqual({
      kind: "rejection",
      message: "unhandled promise rejection in main: plain string"
    })
    expect(
      mainConsoleError("(node:7) UnhandledPromiseRejectionWarning: Unhandled promise rejection. This error originated either by throwing … (rejection id: 1)")
    ).toBeUndefined()
    expect(mainConsoleError("[app] Failed to load URL: http://x/ with error: ERR_FAILED")).toBeUndefined()
    expect(mainConsoleError("retrying after UnhandledPromiseRejectionWarning: x")).toBeUndefined()
  })
})
