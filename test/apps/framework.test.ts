/**
 * The `framework` sample app (React 19, test/fixtures/apps/framework) end to end through unmodified
 * playwright-core, launched once for the whole file. The bundle is built by test/global-setup.ts.
 * Tests run in order and share the app.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { ConsoleMessage, Page } from "playwright-core"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { sampleAppPath } from "../../src/samples.js"
import { activityLines } from "../support/activity.js"
import {
  cleanUp,
  clickThatClosesItsWindow,
  clickMenuItem,
  clickMenuRole,
  descendants,
  launchSample,
  openWindow,
  runtime,
  setThemeSource,
  stubDialogs,
  text,
  themeOf,
  UI_TIMEOUT,
  waitForExit,
  type Launched
} from "./support.js"

const poll = { timeout: UI_TIMEOUT }

let launched: Launched
let page: Page
let second: Page | undefined

beforeAll(async () => {
  const bundle = join(sampleAppPath("framework"), "dist", "renderer.js")
  if (!existsSync(bundle)) throw new Error(`${bundle} is missing: test/global-setup.ts builds it (vitest.config.ts globalSetup)`)
  launched = await launchSample("framework")
  page = launched.page
})

afterAll(async () => {
  await cleanUp(launched)
})

describe(`framework app on ${runtime.kind}`, () => {
  it("launches and renders the React app (not the bundle-missing notice)", async () => {
    await page.getByRole("heading", { level: 1, name: "Framework Demo" }).waitFor({ state: "visible" })
    expect(await page.getByTestId("bundle-missing").count()).toBe(0)
    expect(await page.title()).toBe("Framework Demo")
    expect(await text(page, "notice")).toBe("Ready")
    expect(await text(page, "counter-value")).toBe("0")
    expect(await text(page, "item-count")).toBe("Showing 30 of 30 items")
    expect(await page.getByTestId("item").count()).toBe(30)
    expect(await text(page, "greeting")).toBe("Hello, stranger!")
    expect(await text(page, "form-validity")).toBe("4 fields need attention")
    expect(await page.getByTestId("document").count()).toBe(0)
  })

  it("app.getName() is the productName; api.getInfo() agrees", async () => {
    expect(await launched.app.evaluate(({ app }: any) => [app.getName(), app.getVersion()])).toEqual(["Framework Demo", "0.9.0"])
    expect(await page.evaluate(() => (window as any).api.getInfo())).toEqual({
      name: "Framework Demo",
      version: "0.9.0",
      platform: process.platform
    })
  })

  it("electronApp.browserWindow(page) gives the main window's title and bounds", async () => {
    const handle = await launched.app.browserWindow(page)
    const info = await handle.evaluate((w: any) => ({ title: w.getTitle(), bounds: w.getBounds(), destroyed: w.isDestroyed() }))
    expect(info).toMatchObject({ title: "Framework Demo", bounds: { width: 980, height: 760 }, destroyed: false })
    const innerWidth = await page.evaluate(() => window.innerWidth)
    expect(innerWidth).toBeGreaterThan(0)
    expect(innerWidth).toBeLessThanOrEqual(info.bounds.width)
  })

  it("fill and click: Ping shows the reply in ping-result", async () => {
    await page.getByLabel("Ping text").fill("react")
    await page.getByRole("button", { name: "Ping", exact: true }).click()
    await expect.poll(() => text(page, "ping-result"), poll).toBe("pong:react")
  })

  it("IPC round trip: window.api.ping('x') resolves 'pong:x'", async () => {
    expect(await page.evaluate(() => (window as any).api.ping("x"))).toBe("pong:x")
  })

  it("controlled inputs validate as the user types, and every field after a Save attempt", async () => {
    const name = page.getByLabel("Name", { exact: true })
    await name.fill("A")
    await expect.poll(() => text(page, "name-error"), poll).toBe("Name must be at least 2 characters")
    expect(await name.getAttribute("aria-invalid")).toBe("true")
    expect(await text(page, "greeting")).toBe("Hello, A!")
    await name.fill("")
    await expect.poll(() => text(page, "name-error"), poll).toBe("Name is required")
    expect(await text(page, "greeting")).toBe("Hello, stranger!")
    // Untouched fields show no error yet.
    expect(await text(page, "age-error")).toBe("")
    expect(await text(page, "role-error")).toBe("")

    await page.getByLabel("Age").fill("12")
    await expect.poll(() => text(page, "age-error"), poll).toBe("Age must be a whole number from 18 to 120")
    await name.fill("Ada Lovelace")
    await expect.poll(() => text(page, "name-error"), poll).toBe("")
    expect(await name.getAttribute("aria-invalid")).toBeNull()
    expect(await text(page, "form-validity")).toBe("3 fields need attention")

    const warned = page.waitForEvent("console", {
      predicate: (m: ConsoleMessage) => m.type() === "warning" && m.text().includes("save blocked"),
      timeout: UI_TIMEOUT
    })
    await page.getByRole("button", { name: "Save", exact: true }).click()
    await expect.poll(() => text(page, "save-result"), poll).toBe("Fix 3 problems before saving")
    expect((await warned).text()).toBe("[framework] save blocked by 3 validation errors")
    expect(await text(page, "role-error")).toBe("Choose a role")
    expect(await text(page, "terms-error")).toBe("You must accept the terms")

    await page.getByLabel("Age").fill("36")
    await page.getByLabel("Role").selectOption("developer")
    await page.getByLabel("I accept the terms").check()
    await expect.poll(() => text(page, "form-validity"), poll).toBe("Form is valid")
    for (const field of ["name", "age", "role", "terms"]) expect(await text(page, `${field}-error`)).toBe("")
    expect(await page.getByLabel("Role").inputValue()).toBe("developer")
    expect(await page.getByLabel("I accept the terms").isChecked()).toBe(true)
  })

  it("Save goes to main through IPC and writes <userData>/profile.json", async () => {
    await page.getByTestId("save-button").click()
    await expect.poll(() => text(page, "save-result"), poll).toBe("Saved profile for Ada Lovelace")
    const file = join(resolve(launched.userData), "profile.json")
    expect(await text(page, "notice")).toBe(`Saved to ${file}`)
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ name: "Ada Lovelace", age: 36, role: "developer", terms: true })
    expect(await page.evaluate(() => (window as any).api.loadProfile())).toMatchObject({ name: "Ada Lovelace", age: 36 })
    // Main refuses a short name; the rejection crosses IPC.
    const refused = await page.evaluate(() =>
      (window as any).api.saveProfile({ name: "A", age: 30, role: "designer", terms: true }).then(
        () => "saved",
        (err: Error) => err.message
      )
    )
    expect(refused).toContain("profile:save expects { name (2+ characters), age, role, terms }")
  })

  it("Reset empties the controlled inputs", async () => {
    await page.getByTestId("reset-form").click()
    await expect.poll(() => text(page, "save-result"), poll).toBe("Form reset")
    expect(await page.getByLabel("Name", { exact: true }).inputValue()).toBe("")
    expect(await page.getByLabel("Age").inputValue()).toBe("")
    expect(await page.getByLabel("Role").inputValue()).toBe("")
    expect(await page.getByLabel("I accept the terms").isChecked()).toBe(false)
    expect(await text(page, "form-validity")).toBe("4 fields need attention")
    expect(await text(page, "name-error")).toBe("")
  })

  it("the filtered list re-renders on every keystroke and marks the match", async () => {
    const renders = async () => Number((await text(page, "render-count"))?.match(/^Rendered (\d+) times$/)?.[1])
    const before = await renders()
    expect(before).toBeGreaterThan(0)
    await page.getByLabel("Filter items").pressSequentially("BERRY")
    await expect.poll(() => text(page, "item-count"), poll).toBe("Showing 4 of 30 items")
    expect(await page.getByTestId("item").allTextContents()).toEqual(["Blackberry", "Blueberry", "Cranberry", "Raspberry"])
    expect(await page.getByTestId("item-list").locator("mark").allTextContents()).toEqual(["berry", "berry", "berry", "berry"])
    expect(await renders()).toBeGreaterThanOrEqual(before + 5)

    await page.getByLabel("Filter items").fill("xyz")
    await expect.poll(() => text(page, "no-items"), poll).toBe("No items match")
    expect(await page.getByTestId("item").count()).toBe(0)
    await page.getByLabel("Filter items").fill("")
    await expect.poll(() => page.getByTestId("item").count(), poll).toBe(30)
  })

  it("the counter's buttons and View > Increment Counter clicked from the main process", async () => {
    await page.getByRole("button", { name: "Increment" }).click()
    await page.getByRole("button", { name: "Increment" }).click()
    await page.getByRole("button", { name: "Decrement" }).click()
    await expect.poll(() => text(page, "counter-value"), poll).toBe("1")
    await clickMenuItem(launched.app, "increment")
    await expect.poll(() => text(page, "counter-value"), poll).toBe("2")
    expect(activityLines(launched.userData, "menu")).toEqual(["menu increment"])
    await page.getByTestId("reset-counter").click()
    await expect.poll(() => text(page, "counter-value"), poll).toBe("0")
  })

  it("replaced dialogs: the picked file is shown as a document (button); the About box's answer is logged, not shown (Help > About from main)", async () => {
    const picked = join(launched.userData, "picked.txt")
    writeFileSync(picked, "first line\nsecond line\n")
    const calls = await stubDialogs(launched.app, {
      open: { canceled: false, filePaths: [picked, join(launched.userData, "other.txt")] },
      messageBox: { response: 0 }
    })
    await page.getByRole("button", { name: "Open file…" }).click()
    await page.getByRole("heading", { level: 2, name: "picked.txt" }).waitFor({ state: "visible", timeout: UI_TIMEOUT })
    expect(await text(page, "document-content")).toBe("first line\nsecond line\n")
    await clickMenuItem(launched.app, "about")
    await expect.poll(() => activityLines(launched.userData, "message-box"), poll).toEqual(["message-box About: OK"])
    expect(activityLines(launched.userData, "menu", "open-dialog")).toEqual(["menu increment", `open-dialog ${picked}`, "menu about"])
    expect(await page.locator("body").innerText()).not.toMatch(/About: OK|response 0|Opened: /)
    const recorded = await calls()
    expect(recorded.map((c) => c.method)).toEqual(["showOpenDialog", "showMessageBox"])
    expect(recorded[0]!.options).toMatchObject({ title: "Open a file", properties: ["openFile"] })
    expect(recorded[1]!.options).toMatchObject({ message: "Framework Demo 0.9.0", buttons: ["OK", "Cancel"], cancelId: 1 })
  })

  it("an About box closed with Cancel and a canceled open dialog leave the page as it was; the activity log tells them apart", async () => {
    const notice = await text(page, "notice")
    await stubDialogs(launched.app, { open: { canceled: true, filePaths: [] }, messageBox: { response: 1 } })
    await page.getByTestId("about-button").click()
    await expect.poll(() => activityLines(launched.userData, "message-box").at(-1), poll).toBe("message-box About: Cancel")
    await clickMenuItem(launched.app, "open-file")
    await expect.poll(() => activityLines(launched.userData, "open-dialog").at(-1), poll).toBe("open-dialog canceled")
    expect(await text(page, "document-title")).toBe("picked.txt")
    expect(await text(page, "notice")).toBe(notice)
  })

  it("File > Open Second Window opens a window seen by waitForEvent('window'); the button focuses it", async () => {
    // The context's console listener, on before the window opens, sees the new window's messages from the first
    // one. (A listener the page gets in electronApp.on('window') subscribes once the page already runs: under
    // load its first messages came before it, on Electron as on the stand-in.)
    const early: Array<string> = []
    const onConsole = (m: ConsoleMessage) => void (m.page() !== page && early.push(`${m.type()} ${m.text()}`))
    launched.app.context().on("console", onConsole)
    second = await openWindow(launched.app, () => clickMenuItem(launched.app, "open-second"))
    await expect
      .poll(() => early, poll)
      .toEqual(expect.arrayContaining(["log [framework] rendering the second view with React", "log [framework] second window mounted"]))
    launched.app.context().off("console", onConsole)
    expect(early.indexOf("log [framework] rendering the second view with React")).toBeLessThan(early.indexOf("log [framework] second window mounted"))
    await second.getByRole("heading", { level: 1, name: "Second Window" }).waitFor({ state: "visible" })
    expect(await second.title()).toBe("Second Window")
    await expect.poll(() => text(page, "notice"), poll).toBe("Second window opened")
    expect(launched.app.windows()).toHaveLength(2)
    expect(await (await launched.app.browserWindow(second)).evaluate((w: any) => w.getBounds())).toMatchObject({ width: 520, height: 420 })

    await second.getByLabel("Ping text").fill("two")
    await second.getByRole("button", { name: "Ping", exact: true }).click()
    await expect.poll(() => text(second!, "ping-result"), poll).toBe("pong:two")
    expect(await text(page, "ping-result")).toBe("pong:react")

    await page.getByTestId("open-second-button").click()
    await expect.poll(() => launched.app.evaluate(({ BrowserWindow }: any) => BrowserWindow.getAllWindows().length), poll).toBe(2)
    expect(launched.app.windows()).toHaveLength(2)
  })

  it("the theme follows nativeTheme.themeSource in both windows (main process, then View > Toggle Theme)", async () => {
    const windows = [page, second!]
    await setThemeSource(launched.app, "dark")
    for (const w of windows) await expect.poll(() => themeOf(w), poll).toEqual({ dark: true, indicator: "Theme: dark", body: "dark" })
    await clickMenuItem(launched.app, "toggle-theme")
    await expect.poll(() => text(page, "notice"), poll).toBe("Theme set to light")
    for (const w of windows) await expect.poll(() => themeOf(w), poll).toEqual({ dark: false, indicator: "Theme: light", body: "light" })
    await page.getByTestId("toggle-theme-button").click()
    await expect.poll(() => text(page, "notice"), poll).toBe("Theme set to dark")
    for (const w of windows) await expect.poll(() => themeOf(w), poll).toEqual({ dark: true, indicator: "Theme: dark", body: "dark" })
  })

  it("the second window's Close button closes it", async () => {
    const s = second!
    const closed = s.waitForEvent("close", { timeout: UI_TIMEOUT })
    await clickThatClosesItsWindow(s.getByTestId("close-window"))
    await closed
    expect(launched.app.windows()).toEqual([page])
    await expect.poll(() => launched.app.evaluate(({ BrowserWindow }: any) => BrowserWindow.getAllWindows().length), poll).toBe(1)
  })

  it("File > Quit clicked from the main process ends the app: the process and its children exit", async () => {
    const { app, pid } = launched
    expect(pid).toBe(app.process().pid)
    const children = descendants(pid)
    const closed = app.waitForEvent("close", { timeout: 30_000 })
    await clickMenuRole(app, "quit").catch(() => undefined) // the evaluate may lose its connection as the app quits
    await closed
    expect(await waitForExit(pid, children)).toEqual([])
    expect(() => process.kill(pid, 0)).toThrow()
  })
})
