/**
 * Surfaces end to end over the in-memory MCP pair, on the `surfaces` sample app: one window whose page holds a
 * same-origin and a cross-origin iframe and a <webview> guest, with a WebContentsView sidebar and a BrowserView
 * banner. Each is a surface with its own id, kind and parent; refs belong to their surface; events name it.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { join } from "node:path"
import { freshUserData, inMemoryClient, type TestClient } from "../support/mcp.js"

const app = join(import.meta.dirname, "..", "fixtures", "apps", "surfaces")
let mcp: TestClient

const refOf = (text: string, line: RegExp): string => {
  const found = new RegExp(`${line.source}[^\\n]*?\\[ref=([a-z0-9]+)\\]`).exec(text)?.[1]
  if (found === undefined) throw new Error(`no ref for ${line} in:\n${text}`)
  return found
}

/** The id of the surface showing `file` (views and guests are numbered in the order their pages appeared). */
const surfaceId = async (file: string): Promise<string> =>
  ((await mcp.call("electron_windows")).structured.windows as Array<{ id: string; url: string }>).find((s) => s.url.split("?")[0]!.endsWith(`/${file}`))!.id

beforeAll(async () => {
  mcp = await inMemoryClient({ toolProfile: "full" })
  const launched = await mcp.call("electron_launch", { app, env: { SAMPLE_APP_USER_DATA: freshUserData() } })
  expect(launched.isError, launched.text).toBe(false)
  const ready = await mcp.call("electron_wait_for", { text: "Guest ready", timeoutMs: 30_000 })
  if (ready.isError) {
    // Seen under the whole suite's load (not reproduced alone): say what the launch answered (which surface was active)
    // and what the page and the app showed by then.
    const status = await mcp.call("electron_get_text", { target: "[data-testid=webview-status]" })
    const surfaces = await mcp.call("electron_windows")
    const logs = await mcp.call("electron_console", {})
    expect.fail([ready.text, `webview status: ${status.text}`, `the launch answered:\n${launched.text}`, surfaces.text, logs.text].join("\n\n"))
  }
})

afterAll(async () => {
  await mcp?.close()
})

describe("surfaces of the surfaces app", () => {
  it("electron_windows lists the window, its two views, the guest and both frames, parents first", async () => {
    const list = await mcp.call("electron_windows")
    expect(list.isError, list.text).toBe(false)
    const surfaces = list.structured.windows as Array<{
      id: string
      kind: string
      parent?: string
      url: string
      crossOrigin?: boolean
      bounds?: { width: number; height: number }
      active: boolean
      works: Array<string>
    }>
    const byFile = (file: string) => surfaces.find((s) => s.url.split("?")[0]!.endsWith(`/${file}`))!
    expect(surfaces.map((s) => s.kind)).toEqual(["window", "view", "view", "guest", "frame", "frame"])
    expect(byFile("index.html")).toMatchObject({ id: "w1", kind: "window", active: true })
    expect(byFile("sidebar.html")).toMatchObject({ kind: "view", parent: "w1", bounds: { width: 220, height: 800 } })
    expect(byFile("banner.html")).toMatchObject({ kind: "view", parent: "w1", bounds: { width: 980, height: 100 } })
    expect([byFile("sidebar.html").id, byFile("banner.html").id].sort()).toEqual(["v1", "v2"])
    expect(byFile("guest.html")).toMatchObject({ id: "g1", kind: "guest", parent: "w1" })
    expect(byFile("form-frame.html")).toMatchObject({ kind: "frame", parent: "w1", crossOrigin: false })
    expect(byFile("login.html")).toMatchObject({ kind: "frame", parent: "w1", crossOrigin: true })
    expect(byFile("login.html").works).toEqual(expect.arrayContaining(["snapshot", "interact", "eval"]))
    expect(list.text).toMatch(new RegExp(`^ {2}${byFile("sidebar.html").id} view in w1 "Sidebar" \\S+sidebar\\.html 220x800@0,0$`, "m"))
    expect(list.text).toMatch(/^ {2}fr\d+ frame in w1, cross-origin "Sign in" http:\/\/127\.0\.0\.1:\d+\/login\.html$/m)
  })

  it("a window's snapshot holds its frames' content, each iframe named by its frame surface", async () => {
    const snapshot = await mcp.call("electron_snapshot")
    const frames = (await mcp.call("electron_windows")).structured.windows.filter((s: { kind: string }) => s.kind === "frame").map((s: { id: string }) => s.id)
    expect(snapshot.text).toMatch(new RegExp(`- iframe \\[ref=e\\d+\\] \\(frame ${frames[0]}\\):\\n\\s+- generic \\[ref=f\\d+e\\d+\\]`))
    expect(snapshot.text).toContain(`(frame ${frames[1]}):`)
    expect(snapshot.text).toMatch(/textbox "User name" \[ref=f\d+e\d+\]/)
  })

  it("fills and submits the form inside the cross-origin iframe, once selected", async () => {
    const login = (await mcp.call("electron_windows")).structured.windows.find((s: { url: string }) => s.url.endsWith("/login.html")).id
    const selected = await mcp.call("electron_select_window", { window: login })
    expect(selected.text).toMatch(new RegExp(`^Active window: \\* ${login} frame in w1, cross-origin "Sign in"`))
    const snapshot = await mcp.call("electron_snapshot")
    expect(snapshot.text.split("\n")[0]).toMatch(new RegExp(`^${login} frame in w1 "Sign in" http://127\\.0\\.0\\.1:\\d+/login\\.html$`))
    expect(snapshot.text).not.toContain("Surfaces Demo")
    expect((await mcp.call("electron_fill", { target: refOf(snapshot.text, /textbox "User name"/), value: "ada" })).isError).toBe(false)
    expect((await mcp.call("electron_fill", { target: "label=Password", value: "secret" })).isError).toBe(false)
    const submitted = await mcp.call("electron_click", { target: "testid=login-submit" })
    expect(submitted.isError, submitted.text).toBe(false)
    const result = await mcp.call("electron_expect_text", { target: "testid=login-result", text: "Signed in as ada" })
    expect(result.isError, result.text).toBe(false)
    // The frame's console message names the frame, not the window that holds it.
    const logged = await mcp.call("electron_console", { text: "login-frame: signed in as ada" })
    expect(logged.structured.messages).toHaveLength(1)
    expect(logged.structured.messages[0]).toMatchObject({ window: "w1", surface: login })
    expect(logged.text).toMatch(new RegExp(`${login} log: \\[surfaces\\] login-frame: signed in as ada`))
  })

  it("a click on a sidebar button (a WebContentsView) changes the main window; its ref refused in the window names both", async () => {
    const view = await surfaceId("sidebar.html")
    expect((await mcp.call("electron_select_window", { window: view })).isError).toBe(false)
    const sidebar = await mcp.call("electron_snapshot")
    const reports = refOf(sidebar.text, /button "Reports"/)
    expect(reports).toMatch(new RegExp(`^${view}e\\d+$`))
    expect((await mcp.call("electron_select_window", { window: "w1" })).isError).toBe(false)
    await mcp.call("electron_snapshot")
    const refused = await mcp.call("electron_click", { target: reports })
    expect(refused.code).toBe("REF_STALE")
    expect(refused.text).toContain(`${reports} is a ref of view ${view} in w1 (sidebar.html), not of window w1 (index.html)`)
    expect(refused.text).toContain(`electron_select_window window=${view}`)
    expect((await mcp.call("electron_select_window", { window: view })).isError).toBe(false)
    const clicked = await mcp.call("electron_click", { target: reports })
    expect(clicked.isError, clicked.text).toBe(false)
    expect(clicked.text).toMatch(new RegExp(`status \\[ref=${view}e\\d+\\]: "Selected: Reports"`))
    expect((await mcp.call("electron_select_window", { window: "w1" })).isError).toBe(false)
    const heading = await mcp.call("electron_expect_text", { target: "testid=main-heading", text: "Surfaces Demo — Reports" })
    expect(heading.isError, heading.text).toBe(false)
    const logged = await mcp.call("electron_console", { text: "sidebar: clicked reports" })
    expect(logged.structured.messages[0]).toMatchObject({ window: view, surface: view })
  })

  it("a screenshot of a view is the view's bounds", async () => {
    const banner = await surfaceId("banner.html")
    expect((await mcp.call("electron_select_window", { window: banner })).isError).toBe(false)
    const shot = await mcp.call("electron_screenshot")
    expect(shot.isError, shot.text).toBe(false)
    expect(shot.structured).toMatchObject({ window: banner, width: 980, height: 100 })
    expect((await mcp.call("electron_select_window", { window: "w1" })).isError).toBe(false)
  })
})
