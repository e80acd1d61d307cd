/**
 * webContents 'before-input-event': keys typed with Playwright (CDP Input.dispatchKeyEvent) reach the main
 * process first with Electron's `input` object; a prevented key never reaches the page (a shortcut handled in
 * main); keys the main process lets through reach the page in order, with their default actions (typing).
 */
import type { ElectronApplication, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { fixture, launch, loadedFirstWindow, pageWithUrl, runtime } from "./helpers.js"

const PAGE = `<!doctype html><html><head><title>keys</title></head><body>
<input id="field" autocomplete="off">
<form id="form"><input id="in-form" name="q"><button>Go</button></form>
<p id="shortcut">idle</p>
<p id="submitted">no</p>
<script>
  window.pageKeys = []
  window.addEventListener('keydown', (e) => window.pageKeys.push('down:' + e.key), true)
  window.addEventListener('keyup', (e) => window.pageKeys.push('up:' + e.key), true)
  document.getElementById('form').addEventListener('submit', (e) => { e.preventDefault(); document.getElementById('submitted').textContent = 'yes:' + document.getElementById('in-form').value })
</script>
</body></html>`

describe(`before-input-event on ${runtime.kind}`, () => {
  let app: ElectronApplication
  let page: Page

  const inputs = (): Promise<Array<any>> => app.evaluate(() => (globalThis as any).inputs)
  const pageKeys = (): Promise<Array<string>> => page.evaluate(() => (window as any).pageKeys)
  /** Empties #field without key events (Playwright's fill('') presses Delete, which main would see). */
  const clearField = () => page.evaluate(() => ((document.getElementById("field") as HTMLInputElement).value = ""))
  /** Main sees a key as the page stops it and handles keys in order: wait until it has handled `count`. */
  const inputsWhen = (count: number) => expect.poll(async () => (await inputs()).length, { timeout: 10_000 }).toBe(count)
  const reset = async () => {
    await app.evaluate(() => ((globalThis as any).inputs = []))
    await page.evaluate(() => ((window as any).pageKeys = []))
  }

  beforeAll(async () => {
    app = await launch(fixture("cjs-app"))
    await loadedFirstWindow(app, /index\.html$/)
    await app.evaluate(({ BrowserWindow }, html) => {
      const g = globalThis as any
      g.inputs = []
      const win = new BrowserWindow({ width: 600, height: 400, title: "keys" })
      g.keysWindowId = win.id
      g.onInput = (event: any, input: any) => {
        g.inputs.push(input)
        if (input.type === "keyDown" && input.control && !input.shift && input.key.toLowerCase() === "k") {
          event.preventDefault()
          void win.webContents.executeJavaScript("document.getElementById('shortcut').textContent = 'handled in main'")
        }
      }
      win.webContents.on("before-input-event", g.onInput)
      void win.loadURL("data:text/html;charset=utf-8," + encodeURIComponent(html))
    }, PAGE)
    page = await pageWithUrl(app, /^data:text\/html/)
  })

  afterAll(async () => {
    await app?.close()
  })

  it("shows typed keys to the main process first (Electron's input object), then the page types them in order", async () => {
    await page.focus("#field")
    await reset()
    await page.keyboard.type("abc")
    await expect.poll(() => page.inputValue("#field"), { timeout: 10_000 }).toBe("abc")
    await inputsWhen(6)
    const seen = await inputs()
    expect(seen.map((i: any) => `${i.type}:${i.key}`)).toEqual(["keyDown:a", "keyUp:a", "keyDown:b", "keyUp:b", "keyDown:c", "keyUp:c"])
    expect(seen[0]).toMatchObject({
      type: "keyDown",
      key: "a",
      code: "KeyA",
      isAutoRepeat: false,
      shift: false,
      control: false,
      alt: false,
      meta: false,
      location: 0
    })
    expect(Array.isArray(seen[0].modifiers)).toBe(true)
    await expect.poll(() => pageKeys(), { timeout: 10_000 }).toEqual(["down:a", "up:a", "down:b", "up:b", "down:c", "up:c"])
  })

  it("keeps a key prevented in main from the page: a shortcut handled in the main process", async () => {
    await clearField()
    await page.focus("#field")
    await reset()
    await page.keyboard.press("Control+k")
    await expect.poll(() => page.textContent("#shortcut"), { timeout: 10_000 }).toBe("handled in main")
    await inputsWhen(4)
    const seen = await inputs()
    expect(seen.map((i: any) => `${i.type}:${i.key}`)).toEqual(["keyDown:Control", "keyDown:k", "keyUp:k", "keyUp:Control"])
    expect(seen[1]).toMatchObject({ type: "keyDown", key: "k", code: "KeyK", control: true, shift: false, alt: false, meta: false })
    expect(seen[1].modifiers).toContain("control")
    await expect.poll(() => pageKeys(), { timeout: 10_000 }).toEqual(["down:Control", "up:k", "up:Control"])
    expect(await page.inputValue("#field")).toBe("")
  })

  it("lets capitals and Enter through with their default actions (text, form submission)", async () => {
    await page.focus("#in-form")
    await reset()
    await page.keyboard.type("Hi")
    await page.keyboard.press("Enter")
    await expect.poll(() => page.textContent("#submitted"), { timeout: 10_000 }).toBe("yes:Hi")
    await inputsWhen(6)
    const seen = await inputs()
    expect(seen.find((i: any) => i.type === "keyDown" && i.key === "H")).toMatchObject({ code: "KeyH", control: false })
    expect(seen.find((i: any) => i.type === "keyDown" && i.key === "Enter")).toMatchObject({ code: "Enter", shift: false })
  })

  it("keeps the default actions of editing and focus keys it lets through (Backspace, arrows, Tab)", async () => {
    await clearField()
    await page.focus("#field")
    await reset()
    await page.keyboard.type("abcd")
    await page.keyboard.press("Backspace")
    await page.keyboard.press("ArrowLeft")
    await page.keyboard.type("X")
    await expect.poll(() => page.inputValue("#field"), { timeout: 10_000 }).toBe("abXc")
    await page.keyboard.press("Tab")
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), { timeout: 10_000 }).toBe("in-form")
    await inputsWhen(16)
    const seen = (await inputs()).filter((i: any) => i.type === "keyDown").map((i: any) => i.key)
    expect(seen).toEqual(["a", "b", "c", "d", "Backspace", "ArrowLeft", "X", "Tab"])
  })

  it("answers each key once the page handled it, as Electron does: what the keys did is there when they return", async () => {
    for (let i = 0; i < 3; i++) {
      await clearField()
      await page.focus("#field")
      await page.keyboard.type(`Hello wonderful world ${i}`)
      // No polling: the last character is in.
      expect(await page.inputValue("#field")).toBe(`Hello wonderful world ${i}`)
      await page.evaluate(() => {
        document.getElementById("submitted")!.textContent = "no"
        ;(document.getElementById("in-form") as HTMLInputElement).value = `q${Math.random()}`
      })
      const query = await page.inputValue("#in-form")
      // Enter on a focused button submits its form.
      await page.focus("#form button")
      await page.keyboard.press("Enter")
      expect(await page.textContent("#submitted")).toBe(`yes:${query}`)
    }
  })

  it("stops intercepting when the main process removes its listener", async () => {
    await app.evaluate(({ BrowserWindow }) => {
      const g = globalThis as any
      BrowserWindow.fromId(g.keysWindowId)!.webContents.removeListener("before-input-event", g.onInput)
    })
    await clearField()
    await page.focus("#field")
    await reset()
    await page.keyboard.press("Control+k")
    await page.keyboard.type("z")
    await expect.poll(() => page.inputValue("#field"), { timeout: 10_000 }).toBe("z")
    expect(await inputs()).toEqual([])
    await expect.poll(() => pageKeys(), { timeout: 10_000 }).toEqual(["down:Control", "down:k", "up:k", "up:Control", "down:z", "up:z"])
  })
})
