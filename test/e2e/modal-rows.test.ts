/**
 * Issue 35, item 2 end to end over MCP with `--tool-profile essential` only, on the tasks sample app: every
 * modal state leads the snapshot (and the answer of the action that opened it) as rows with refs, and the
 * same verbs answer it: a confirm and an alert (click / press_key; a prompt() opens nothing, as on Electron: the
 * app's inline form takes the name); a native message box
 * read and dismissed; a native open dialog answered with a path (confined to --app-root) and a save
 * dialog with a name (written under the output folder); a context-menu item clicked by ref; a file
 * chooser filled. Native dialogs are held in the main process while the agent decides.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { sampleAppPath } from "../../src/samples.js"
import { callUntil, freshUserData, inMemoryClient, type TestClient, type ToolCallOutcome } from "../support/mcp.js"

// --app-root is the checkout (the app and its electron package lie inside); the files given live in its ignored cache.
const appRoot = fileURLToPath(new URL("../..", import.meta.url))
mkdirSync(join(appRoot, "node_modules", ".cache"), { recursive: true })
const root = mkdtempSync(join(appRoot, "node_modules", ".cache", "modal-rows-"))
const output = mkdtempSync(join(tmpdir(), "stagewright-modal-out-"))
let mcp: TestClient

/** The ref of the row `- <role> "<name>" … [ref=dN]` (a modal row) or `[ref=eN]` (a page row) in an answer. */
const refOf = (result: ToolCallOutcome, role: string, name: string): string => {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
  const match = new RegExp(`- ${role} "${escaped}"[^\\n]*\\[ref=([a-z]\\d+)\\]`).exec(result.text)
  expect(match, `no ${role} "${name}" row in:\n${result.text}`).not.toBeNull()
  return match![1]!
}

const snapshotUntil = (pattern: RegExp) => Effect.runPromise(callUntil(mcp, "electron_snapshot", {}, (r) => pattern.test(r.text)))
const textIs = async (testid: string, text: string) => {
  const result = await mcp.call("electron_expect_text", { target: `testid=${testid}`, text })
  expect(result.isError, result.text).toBe(false)
}

beforeAll(async () => {
  mcp = await inMemoryClient({ toolProfile: "essential", appRoot, outputDir: output })
  const launched = await mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } })
  expect(launched.isError, launched.text).toBe(false)
  expect((await mcp.call("electron_wait_for", { target: 'css=body[data-ready="true"]' })).isError).toBe(false)
})

afterAll(async () => {
  await mcp?.close()
})

describe("web dialogs as rows (essential)", () => {
  it("a confirm: the click that opened it shows its rows; Cancel keeps the task, OK deletes it", async () => {
    const opened = await mcp.call("electron_click", { target: 'role=button[name="Delete Renew passport"]' })
    expect(opened.isError, opened.text).toBe(false)
    expect(opened.text).toContain('- dialog "confirm: Delete \\"Renew passport\\"?" [modal] (in w1; its page is blocked):')
    const shown = await mcp.call("electron_snapshot")
    expect(shown.text.split("\n")[1]).toMatch(/^- dialog "confirm: /)
    const cancel = await mcp.call("electron_click", { target: refOf(shown, "button", "Cancel") })
    expect(cancel.isError, cancel.text).toBe(false)
    expect(cancel.text).toContain('Dismissed the confirm "Delete "Renew passport"?"')
    expect((await mcp.call("electron_find", { target: 'role=button[name="Delete Renew passport"]' })).structured.count).toBe(1)
    const again = await mcp.call("electron_click", { target: 'role=button[name="Delete Renew passport"]' })
    const ok = await mcp.call("electron_click", { target: refOf(again, "button", "OK") })
    expect(ok.text, ok.text).toContain("Accepted the confirm")
    expect((await mcp.call("electron_find", { target: 'role=button[name="Delete Renew passport"]' })).structured.count).toBe(0)
  })

  it("a prompt: Electron has none — Rename board opens no prompt row; the app's inline form takes the name", async () => {
    // Electron's renderer replaces window.prompt with a function that throws "prompt() is and will not be
    // supported." (the stand-in does the same): no dialog opens, so no row; the app catches it and shows its form.
    const opened = await mcp.call("electron_click", { target: 'role=button[name="Rename board"]' })
    expect(opened.isError, opened.text).toBe(false)
    expect(opened.text).not.toContain("[modal]")
    expect(opened.text).not.toMatch(/dialog "prompt: /)
    const shown = await mcp.call("electron_snapshot")
    expect(shown.text).not.toContain("[modal]")
    const box = refOf(shown, "textbox", "Board name")
    const filled = await mcp.call("electron_fill", { target: box, value: "Chores" })
    expect(filled.isError, filled.text).toBe(false)
    const saved = await mcp.call("electron_click", { target: refOf(shown, "button", "Save name") })
    expect(saved.isError, saved.text).toBe(false)
    await textIs("board-name", "Chores")
  })

  it("an alert: Enter answers it; a page action while it is open answers DIALOG_OPEN pointing at its rows", async () => {
    const opened = await mcp.call("electron_click", { target: "testid=about-board" })
    expect(opened.text).toMatch(/- dialog "alert: Board \\"Chores\\": \d+ tasks/)
    const blocked = await mcp.call("electron_click", { target: "testid=search-input" })
    expect(blocked.code, blocked.text).toBe("DIALOG_OPEN")
    expect(blocked.text).toContain("electron_snapshot shows it first with a ref per button")
    const pressed = await mcp.call("electron_press_key", { key: "Enter" })
    expect(pressed.text).toContain("Accepted the alert")
    const after = await mcp.call("electron_snapshot")
    expect(after.text).not.toContain("[modal]")
  })
})

describe("native dialogs held while the agent decides (essential)", () => {
  it("a message box is read (text, detail, buttons, checkbox) and dismissed by its button ref", async () => {
    await mcp.call("electron_click", { target: "testid=about-button" })
    const shown = await snapshotUntil(/message box: About/)
    expect(shown.text).toMatch(/- dialog "message box: About [^"]+" \[modal\] \(in w1; held: answers its default in \d+ s\):/)
    expect(shown.text).toContain('- text: "A sample task board for Stagewright, the MCP server that drives Electron apps."')
    expect(shown.text).toMatch(/- checkbox "Show tips on startup" \[ref=d\d+\]: unchecked/)
    const clicked = await mcp.call("electron_click", { target: refOf(shown, "button", "Copy version") })
    expect(clicked.text).toContain("Answered the message box")
    expect(clicked.text).toContain('"Copy version" (response 1)')
    // The app shows no "response 1": Copy version copies the version, and the app says so as real apps do.
    await textIs("notice", 'Copied "Tasks 1.4.0" to the clipboard')
  })

  it("an open dialog takes a path inside --app-root and refuses one outside", async () => {
    const file = join(root, "import.json")
    writeFileSync(file, JSON.stringify([{ title: "Imported one" }, { title: "Imported two" }]))
    await mcp.call("electron_click", { target: "testid=open-file-button" })
    const shown = await snapshotUntil(/open dialog: Import tasks/)
    const path = refOf(shown, "textbox", "path")
    const outside = await mcp.call("electron_fill", { target: path, value: "/etc/hostname" })
    expect(outside.code, outside.text).toBe("PATH_NOT_ALLOWED")
    expect((await mcp.call("electron_fill", { target: path, value: file })).isError).toBe(false)
    const opened = await mcp.call("electron_click", { target: refOf(shown, "button", "Import") })
    expect(opened.text).toContain(`Answered the open dialog "Import tasks" with ${file}`)
    await textIs("dialog-result", `Imported 2 tasks from ${file}`)
  })

  it("a save dialog takes a file name, written under the output folder", async () => {
    await mcp.call("electron_click", { target: "testid=save-as-button" })
    const shown = await snapshotUntil(/save dialog: Save tasks as/)
    await mcp.call("electron_fill", { target: refOf(shown, "textbox", "file name"), value: "board-copy" })
    const saved = await mcp.call("electron_press_key", { key: "Enter" })
    const file = join(output, "board-copy.json")
    expect(saved.text).toContain(`with ${file}`)
    await textIs("dialog-result", `Saved`)
    expect(existsSync(file)).toBe(true)
    expect(JSON.parse(readFileSync(file, "utf8")).tasks.length).toBeGreaterThan(0)
  })
})

describe("a context menu and a file chooser as rows (essential)", () => {
  it("a right-click's own answer shows the menu the app popped up", async () => {
    // The app pops its menu from the main process after the page's contextmenu: the answer is read after that.
    for (let i = 0; i < 5; i++) {
      const right = await mcp.call("electron_click", { target: "testid=task-row >> nth=0", button: "right" })
      expect(right.text).toMatch(/- menu "context menu: context menu" \[modal\]/)
      expect((await mcp.call("electron_press_key", { key: "Escape" })).text).toMatch(/context menu/)
    }
  })

  it("a context menu popped up by the app: its item is clicked by ref", async () => {
    await mcp.call("electron_click", { target: "testid=task-row >> nth=0", button: "right" })
    const shown = await snapshotUntil(/- menu "context menu: context menu" \[modal\]/)
    const clicked = await mcp.call("electron_click", { target: refOf(shown, "menuitem", "Move to top") })
    expect(clicked.text).toContain('Clicked the context menu item "Move to top"')
    const after = await mcp.call("electron_snapshot")
    expect(after.text).not.toContain('- menu "context menu')
  })

  it("what a context menu item copies is told with the click's answer, once", async () => {
    await mcp.call("electron_click", { target: "testid=task-row >> nth=0", button: "right" })
    const shown = await snapshotUntil(/- menu "context menu: context menu" \[modal\]/)
    const clicked = await mcp.call("electron_click", { target: refOf(shown, "menuitem", "Copy title") })
    expect(clicked.text).toContain('Clicked the context menu item "Copy title"')
    const copied = /\(clipboard: the app copied "([^"]+)"\)/.exec(clicked.text)?.[1]
    expect(copied, clicked.text).toBeDefined()
    // It is the title of a task on the board (the row right-clicked).
    expect(shown.text).toContain(`checkbox "Done: ${copied}"`)
    const next = await mcp.call("electron_snapshot")
    expect(next.text).not.toContain("the app copied")
  })

  it("a file chooser: clicking the file input shows it; filling its path sets the file", async () => {
    const file = join(root, "notes.txt")
    writeFileSync(file, "notes")
    await mcp.call("electron_click", { target: "testid=task-attachment-input" })
    const shown = await snapshotUntil(/file chooser: choose a file/)
    const filled = await mcp.call("electron_fill", { target: refOf(shown, "textbox", "path"), value: file })
    expect(filled.text).toContain(`Chose ${file} in the file chooser`)
    await textIs("attachment-name", "notes.txt")
  })
})
