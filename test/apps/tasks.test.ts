/**
 * The `tasks` sample app (test/fixtures/apps/tasks) end to end through unmodified playwright-core, launched
 * once for the whole file (its other windows and native UI: tasks-windows.test.ts). Tests run in order and
 * share the app; each one says what state it leaves.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { ConsoleMessage, Dialog, Page } from "playwright-core"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { activityLines } from "../support/activity.js"
import {
  cleanUp,
  clickMenuItem,
  descendants,
  launchSample,
  rowTitles,
  runtime,
  savedBoard,
  stubDialogs,
  stubOpenExternal,
  text,
  UI_TIMEOUT,
  waitForExit,
  waitForReady,
  type Launched
} from "./support.js"

const poll = { timeout: UI_TIMEOUT }
const SEEDED_TITLES = ["Renew passport", "Prepare Q3 budget review", "Book dentist appointment"]

let launched: Launched
let page: Page
let openedUrls: () => Promise<Array<string>>
const scratch = mkdtempSync(join(tmpdir(), "stagewright-tasks-files-"))

beforeAll(async () => {
  launched = await launchSample("tasks")
  page = launched.page
  openedUrls = await stubOpenExternal(launched.app)
})

afterAll(async () => {
  await cleanUp(launched)
  rmSync(scratch, { recursive: true, force: true })
})

describe(`tasks app on ${runtime.kind}`, () => {
  it("launches and shows the seeded board once the tasks are loaded", async () => {
    await page.getByRole("heading", { level: 1, name: "Task Board" }).waitFor({ state: "visible" })
    expect(await text(page, "notice")).toBe("Loaded 42 tasks")
    expect(await text(page, "board-name")).toBe("My board")
    expect(await page.getByTestId("task-row").count()).toBe(42)
    expect((await rowTitles(page)).slice(0, 3)).toEqual(SEEDED_TITLES)
    expect(await text(page, "task-count")).toBe("Showing 42 of 42 tasks · 10 done")
    expect(await page.title()).toBe("Tasks — My board")
    expect(await text(page, "versions")).toMatch(/^Electron \d+\.\d+\.\d+\S* · Chrome \d+\.\S+ · Node \d+\.\d+\.\d+$/)
  })

  it("app.getName() and app.getVersion() come from package.json; userData is the fresh folder", async () => {
    const identity = await launched.app.evaluate(({ app }: any) => ({
      name: app.getName(),
      version: app.getVersion(),
      userData: app.getPath("userData")
    }))
    expect(identity).toEqual({ name: "Tasks", version: "1.4.0", userData: resolve(launched.userData) })
    const info = await page.evaluate(() => (window as any).api.getInfo())
    expect(info).toMatchObject({ name: "Tasks", version: "1.4.0", userData: resolve(launched.userData) })
  })

  it("electronApp.browserWindow(page) is the main window: title, bounds, shown (it starts hidden until ready-to-show)", async () => {
    const handle = await launched.app.browserWindow(page)
    const info = await handle.evaluate((w: any) => ({
      title: w.getTitle(),
      bounds: w.getBounds(),
      visible: w.isVisible()
    }))
    expect(info.title).toBe(await page.title())
    expect(info.bounds).toMatchObject({ width: 1100, height: 820 })
    expect(info.visible).toBe(true)
    expect(await launched.app.evaluate(({ BrowserWindow }: any) => BrowserWindow.getAllWindows().length)).toBe(1)
    const inner = await page.evaluate(() => ({ width: window.innerWidth, height: window.innerHeight }))
    expect(inner.width).toBeGreaterThan(0)
    expect(inner.width).toBeLessThanOrEqual(info.bounds.width)
    expect(inner.height).toBeGreaterThan(0)
    expect(inner.height).toBeLessThanOrEqual(info.bounds.height)
  })

  it("fill and click: Ping shows the main process's reply to the field's text (hello when empty)", async () => {
    await page.getByLabel("Ping text").fill("abc")
    await page.getByRole("button", { name: "Ping", exact: true }).click()
    await expect.poll(() => text(page, "ping-result"), poll).toBe("pong:abc")
    await page.getByTestId("ping-input").fill("")
    await page.getByTestId("ping-button").click()
    await expect.poll(() => text(page, "ping-result"), poll).toBe("pong:hello")
  })

  it("IPC round trip: window.api.ping('x') resolves 'pong:x'", async () => {
    expect(await page.evaluate(() => (window as any).api.ping("x"))).toBe("pong:x")
    expect(await page.evaluate(() => typeof (window as any).require)).toBe("undefined")
  })

  it("the late Recommendations panel appears 300–800 ms after load", async () => {
    const panel = page.getByTestId("late-panel")
    await panel.waitFor({ state: "visible" })
    const after = Number(await panel.getAttribute("data-appeared-after-ms"))
    expect(after).toBeGreaterThanOrEqual(300)
    expect(after).toBeLessThanOrEqual(800)
    expect(await panel.getByRole("heading", { level: 2 }).textContent()).toBe("Recommendations")
    expect(await panel.getByRole("listitem").count()).toBe(3)
  })

  it("console messages of a start, in order, seen by page.on('console') across a reload", async () => {
    const messages: Array<{ type: string; text: string }> = []
    const listener = (message: ConsoleMessage) => messages.push({ type: message.type(), text: message.text() })
    page.on("console", listener)
    try {
      await page.reload({ waitUntil: "load" })
      await waitForReady(page)
      const panel = page.getByTestId("late-panel")
      await panel.waitFor({ state: "visible" })
      const after = await panel.getAttribute("data-appeared-after-ms")
      await expect.poll(() => messages.some((m) => m.text.startsWith("[tasks] recommendations appeared")), poll).toBe(true)
      const own = messages.filter((m) => m.text.startsWith("[tasks] ") && !m.text.startsWith("[tasks] color scheme"))
      // The recommendations line comes whenever its timer fires; the load lines keep their order.
      const loadLines = own.filter((m) => !m.text.startsWith("[tasks] recommendations"))
      expect(loadLines.slice(0, 4)).toEqual([
        { type: "log", text: "[tasks] renderer starting" },
        { type: "log", text: "[tasks] loaded 42 tasks (seed)" },
        { type: "warning", text: expect.stringMatching(/^\[tasks\] \d+ tasks are overdue$/) },
        { type: "error", text: "[tasks] sync service unreachable: working offline (sample error)" }
      ])
      expect(own).toContainEqual({ type: "log", text: `[tasks] recommendations appeared after ${after} ms` })
      expect(await text(page, "notice")).toBe("Loaded 42 tasks")
    } finally {
      page.off("console", listener)
    }
  })

  it("adds a task through the form: it goes to the top and is saved to <userData>/tasks.json", async () => {
    const attachment = join(scratch, "brief.txt")
    writeFileSync(attachment, "notes\n")
    const title = "Write the Stagewright end-to-end tests"
    await page.getByLabel("Title", { exact: true }).fill(title)
    await page.getByLabel("Notes", { exact: true }).fill("one file per sample app")
    await page.getByTestId("task-priority-select").selectOption("high")
    await page.getByTestId("task-due-input").fill("2099-01-31")
    await page.getByTestId("task-urgent-checkbox").check()
    await page.getByTestId("category-home").check()
    await page.getByTestId("task-attachment-input").setInputFiles(attachment)
    await expect.poll(() => text(page, "attachment-name"), poll).toBe("brief.txt")
    await page.getByRole("button", { name: "Add task" }).click()

    await expect.poll(() => text(page, "notice"), poll).toBe(`Added "${title}"`)
    const first = page.getByTestId("task-row").first()
    expect(await first.getByTestId("task-title").textContent()).toBe(title)
    expect(await first.getByTestId("task-meta").textContent()).toBe("urgent · high · home · due 2099-01-31 · attachment: brief.txt")
    expect((await rowTitles(page)).slice(1, 4)).toEqual(SEEDED_TITLES)
    expect(await text(page, "task-count")).toBe("Showing 43 of 43 tasks · 10 done")
    // The form resets.
    expect(await page.getByTestId("task-title-input").inputValue()).toBe("")
    expect(await page.getByTestId("task-priority-select").inputValue()).toBe("medium")
    expect(await page.getByTestId("task-urgent-checkbox").isChecked()).toBe(false)
    expect(await page.getByTestId("category-work").isChecked()).toBe(true)
    expect(await text(page, "attachment-name")).toBe("No file chosen")

    await expect.poll(() => savedBoard(launched)?.tasks?.length, poll).toBe(43)
    expect(savedBoard(launched).tasks[0]).toMatchObject({
      title,
      notes: "one file per sample app",
      priority: "high",
      urgent: true,
      category: "home",
      due: "2099-01-31",
      attachment: "brief.txt",
      done: false
    })
    expect(savedBoard(launched).board).toEqual({ name: "My board" })
    expect(await page.locator("body").getAttribute("data-saved")).toMatch(/^\d+$/)
  })

  it("an empty title is refused with a validation message and a console warning", async () => {
    const warning = page.waitForEvent("console", {
      predicate: (m: ConsoleMessage) => m.type() === "warning" && m.text().includes("add task rejected"),
      timeout: UI_TIMEOUT
    })
    await page.getByTestId("add-task-button").click()
    expect((await warning).text()).toBe("[tasks] add task rejected: the title is empty")
    expect(await text(page, "title-error")).toBe("Title is required")
    expect(await page.getByTestId("task-title-input").getAttribute("aria-invalid")).toBe("true")
    expect(await page.getByTestId("task-row").count()).toBe(43)
    await page.getByTestId("task-title-input").fill("x")
    await expect.poll(() => text(page, "title-error"), poll).toBe("")
    await page.getByTestId("task-title-input").fill("")
  })

  it("Delete asks confirm(): dismissing keeps the task, accepting deletes it and saves", async () => {
    const title = "Book dentist appointment"
    const seen: Array<{ type: string; message: string }> = []
    const answer = (accept: boolean) => async (dialog: Dialog) => {
      seen.push({ type: dialog.type(), message: dialog.message() })
      await (accept ? dialog.accept() : dialog.dismiss())
    }
    page.once("dialog", answer(false))
    await page.getByRole("button", { name: `Delete ${title}` }).click()
    await expect.poll(() => text(page, "notice"), poll).toBe(`Kept "${title}"`)
    expect(await rowTitles(page)).toContain(title)

    page.once("dialog", answer(true))
    await page.getByRole("button", { name: `Delete ${title}` }).click()
    await expect.poll(() => text(page, "notice"), poll).toBe(`Deleted "${title}"`)
    expect(seen).toEqual([
      { type: "confirm", message: `Delete "${title}"?` },
      { type: "confirm", message: `Delete "${title}"?` }
    ])
    expect(await rowTitles(page)).not.toContain(title)
    expect(await text(page, "task-count")).toBe("Showing 42 of 42 tasks · 10 done")
    await expect.poll(() => savedBoard(launched)?.tasks?.length, poll).toBe(42)
    expect(savedBoard(launched).tasks.map((t: any) => t.title)).not.toContain(title)
  })

  it("fetches the local API: /api/quote succeeds, /api/broken fails with HTTP 500", async () => {
    const port: number = await page.evaluate(() => (window as any).api.getServerPort())
    expect(port).toBeGreaterThan(0)
    const [quote] = await Promise.all([
      page.waitForResponse((r) => r.url() === `http://127.0.0.1:${port}/api/quote`, { timeout: UI_TIMEOUT }),
      page.getByTestId("load-quote").click()
    ])
    expect(quote.status()).toBe(200)
    expect(await quote.json()).toMatchObject({ text: "Simplicity is prerequisite for reliability.", author: "Edsger W. Dijkstra" })
    await expect.poll(() => text(page, "quote-result"), poll).toBe("“Simplicity is prerequisite for reliability.” — Edsger W. Dijkstra")

    const error = page.waitForEvent("console", {
      predicate: (m: ConsoleMessage) => m.type() === "error" && m.text().startsWith("[tasks] quote request"),
      timeout: UI_TIMEOUT
    })
    const [broken] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith("/api/broken"), { timeout: UI_TIMEOUT }),
      page.getByTestId("load-broken").click()
    ])
    expect(broken.status()).toBe(500)
    await expect.poll(() => text(page, "quote-result"), poll).toBe("Quote failed: HTTP 500: Intentional failure from /api/broken")
    expect((await error).text()).toBe("[tasks] quote request /api/broken failed: HTTP 500: Intentional failure from /api/broken")
  })

  it("the crash button's uncaught error arrives as a pageerror, after its console.error", async () => {
    const logged = page.waitForEvent("console", {
      predicate: (m: ConsoleMessage) => m.text() === "[tasks] crash handler is about to throw",
      timeout: UI_TIMEOUT
    })
    const [error] = await Promise.all([page.waitForEvent("pageerror", { timeout: UI_TIMEOUT }), page.getByTestId("crash-button").click()])
    expect(error.message).toBe("Crash handler button: simulated uncaught error")
    expect((await logged).type()).toBe("error")
    // The page survives its handler's error.
    expect(await page.evaluate(() => (window as any).api.ping("still alive"))).toBe("pong:still alive")
  })

  it("web links go to shell.openExternal (stubbed in main), never to a new window", async () => {
    // The browser opening is the whole effect: the app records it, the page shows nothing of it.
    const opened = () => activityLines(launched.userData, "open-external")
    await page.getByRole("link", { name: "Project website" }).click()
    await expect.poll(opened, poll).toEqual(["open-external https://example.com/"])
    await page.getByTestId("open-docs-button").click()
    await expect.poll(opened, poll).toEqual(["open-external https://example.com/", "open-external https://example.com/help"])
    expect(await text(page, "external-result")).toBe("–")
    await clickMenuItem(launched.app, "open-website")
    await expect.poll(() => text(page, "notice"), poll).toBe("Opening https://example.com/")
    await expect.poll(opened, poll).toHaveLength(3)
    expect(await openedUrls()).toEqual(["https://example.com/", "https://example.com/help", "https://example.com/"])
    // Only https goes through the IPC path.
    expect(await page.evaluate(() => (window as any).api.openExternal("file:///etc/passwd"))).toEqual({
      ok: false,
      error: "only https URLs are opened"
    })
    expect(await openedUrls()).toHaveLength(3)
    expect(launched.app.windows()).toHaveLength(1)
    expect(page.url()).toMatch(/\/renderer\/index\.html$/)
  })

  it("File > New Task clicked from the main process clears the form and focuses the title", async () => {
    await page.getByTestId("task-title-input").fill("half-typed")
    await clickMenuItem(launched.app, "new-task")
    await expect.poll(() => text(page, "notice"), poll).toBe("Ready for a new task")
    expect(await page.getByTestId("task-title-input").inputValue()).toBe("")
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("task-title-input")
  })

  it("replaced dialogs: showOpenDialog imports a file (menu), showMessageBox answers About (button)", async () => {
    const file = join(scratch, "import.json")
    writeFileSync(file, JSON.stringify([{ title: "Imported one", priority: "high" }, { title: "" }, { title: "Imported two" }]))
    const calls = await stubDialogs(launched.app, {
      open: { canceled: false, filePaths: [file] },
      messageBox: { response: 1, checkboxChecked: true }
    })
    await clickMenuItem(launched.app, "open-file")
    await expect.poll(() => text(page, "dialog-result"), poll).toBe(`Imported 2 tasks from ${file}`)
    expect((await rowTitles(page)).slice(-2)).toEqual(["Imported one", "Imported two"])
    await expect.poll(() => savedBoard(launched)?.tasks?.length, poll).toBe(44)

    await page.getByRole("button", { name: "About", exact: true }).click()
    // No "response 1" on the page: Copy version copies the version (the clipboard holds it) and the app says so.
    await expect.poll(() => text(page, "notice"), poll).toBe('Copied "Tasks 1.4.0" to the clipboard')
    expect(await launched.app.evaluate(({ clipboard }: any) => clipboard.readText())).toBe("Tasks 1.4.0")
    const recorded = await calls()
    expect(recorded.map((c) => c.method)).toEqual(["showOpenDialog", "showMessageBox"])
    expect(recorded[0]!.options.filters[0]).toEqual({ name: "Task files", extensions: ["json"] })
    expect(recorded[1]!.options).toMatchObject({ buttons: ["OK", "Copy version", "Cancel"], cancelId: 2, checkboxLabel: "Show tips on startup" })
  })

  it("closes: the main process and its children exit", async () => {
    const { app, pid } = launched
    expect(pid).toBe(app.process().pid)
    const children = descendants(pid)
    expect(children.length).toBeGreaterThan(0)
    await app.close()
    expect(await waitForExit(pid, children)).toEqual([])
    expect(() => process.kill(pid, 0)).toThrow()
  })
})
