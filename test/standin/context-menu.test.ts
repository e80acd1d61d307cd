/**
 * webContents 'context-menu' on a right-click with Electron's params, and a context menu popped up with
 * Menu.popup(): the app's menu is recorded (stand-in: `__standin.popup`), its items are clicked from the main
 * process as Electron's menu would (the popup closes, its callback runs, then the item's click handler).
 */
import type { ElectronApplication, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { fixture, isStandin, launch, loadedFirstWindow, pageWithUrl, runtime } from "./helpers.js"

const PAGE = `<!doctype html><html><head><title>ctx</title></head><body>
<p id="text">Some plain text to select</p>
<a id="link" href="https://example.com/target" title="Go there">Example link</a>
<input id="field" value="hello world">
<input id="secret" type="password" value="hunter2">
<img id="pic" width="40" height="40" alt="a dot" src="data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7">
<div id="quiet" style="width:100px;height:30px">prevented here</div>
<p id="out">none</p>
<script>document.getElementById('quiet').addEventListener('contextmenu', (e) => e.preventDefault())</script>
</body></html>`

describe(`context menus on ${runtime.kind}`, () => {
  let app: ElectronApplication
  let page: Page

  const params = (): Promise<Array<any>> => app.evaluate(() => (globalThis as any).ctxParams)

  beforeAll(async () => {
    app = await launch(fixture("cjs-app"))
    await loadedFirstWindow(app, /index\.html$/)
    await app.evaluate(({ BrowserWindow, Menu }, html) => {
      const g = globalThis as any
      g.ctxParams = []
      g.ctxEvents = []
      const win = new BrowserWindow({ width: 700, height: 500, title: "ctx" })
      g.ctxWindowId = win.id
      win.webContents.on("context-menu", (_event: unknown, p: any) => {
        const { frame, ...rest } = p
        g.ctxParams.push({ ...rest, hasFrame: Boolean(frame) })
        const menu = Menu.buildFromTemplate([
          {
            id: "ctx-mark",
            label: "Mark as clicked",
            click: () => void win.webContents.executeJavaScript(`document.getElementById('out').textContent = 'clicked ${rest.linkURL || rest.mediaType}'`)
          },
          { type: "separator" },
          { id: "ctx-copy-link", label: "Copy Link", enabled: Boolean(rest.linkURL) }
        ])
        menu.on("menu-will-show", () => g.ctxEvents.push("will-show"))
        menu.on("menu-will-close", () => g.ctxEvents.push("will-close"))
        g.lastContextMenu = menu
        menu.popup({ window: win, x: rest.x, y: rest.y, callback: () => g.ctxEvents.push("closed") })
      })
      void win.loadURL("data:text/html;charset=utf-8," + encodeURIComponent(html))
    }, PAGE)
    page = await pageWithUrl(app, /^data:text\/html/)
  })

  afterAll(async () => {
    await app?.close()
  })

  it("emits context-menu for a right-click on a link with Electron's params", async () => {
    await page.click("#link", { button: "right" })
    await expect.poll(async () => (await params()).length, { timeout: 10_000 }).toBe(1)
    const [p] = await params()
    const box = (await page.locator("#link").boundingBox())!
    expect(p).toMatchObject({
      linkURL: "https://example.com/target",
      linkText: "Example link",
      titleText: "Go there",
      mediaType: "none",
      srcURL: "",
      hasImageContents: false,
      isEditable: false,
      selectionText: "",
      frameURL: "",
      inputFieldType: expect.any(String),
      menuSourceType: "mouse",
      hasFrame: true,
      editFlags: { canUndo: false, canRedo: false, canCut: false, canCopy: false, canPaste: false, canDelete: false, canSelectAll: true, canEditRichly: false }
    })
    expect(p.pageURL.startsWith("data:text/html")).toBe(true)
    expect(p.x).toBeGreaterThanOrEqual(Math.floor(box.x))
    expect(p.x).toBeLessThanOrEqual(Math.ceil(box.x + box.width))
    expect(p.y).toBeGreaterThanOrEqual(Math.floor(box.y))
    expect(p.y).toBeLessThanOrEqual(Math.ceil(box.y + box.height))
  })

  it("clicks an item of the popped-up menu from the main process: the popup closes, then the item's handler runs", async () => {
    const listed = await app.evaluate(() => {
      const menu = (globalThis as any).lastContextMenu
      return menu.items.map((item: any) => [item.id ?? null, item.label, item.type, item.enabled])
    })
    expect(listed).toEqual([
      ["ctx-mark", "Mark as clicked", "normal", true],
      [null, "", "separator", true],
      ["ctx-copy-link", "Copy Link", "normal", true]
    ])
    await app.evaluate(({ BrowserWindow }) => {
      const g = globalThis as any
      const win = BrowserWindow.fromId(g.ctxWindowId)!
      g.lastContextMenu.getMenuItemById("ctx-mark").click({}, win, win.webContents)
    })
    await expect.poll(() => page.textContent("#out"), { timeout: 10_000 }).toBe("clicked https://example.com/target")
    if (isStandin) {
      await expect(app.evaluate(() => (globalThis as any).ctxEvents)).resolves.toEqual(["will-show", "will-close", "closed"])
    }
  })

  it.skipIf(!isStandin)("[stand-in only] records the popped-up menu and its window in __standin.popup until an item is clicked", async () => {
    await page.click("#pic", { button: "right" })
    await expect.poll(async () => (await params()).length, { timeout: 10_000 }).toBe(2)
    const popup = await app.evaluate(({ __standin }: any) => {
      const p = __standin.popup
      return {
        open: p.open,
        windowId: p.window.id,
        x: p.x,
        y: p.y,
        labels: p.menu.items.map((item: any) => item.label),
        same: p.menu === (globalThis as any).lastContextMenu
      }
    })
    const [, second] = await params()
    expect(popup).toEqual({
      open: true,
      windowId: await app.evaluate(() => (globalThis as any).ctxWindowId),
      x: second.x,
      y: second.y,
      labels: ["Mark as clicked", "", "Copy Link"],
      same: true
    })
    await app.evaluate(({ __standin }: any) =>
      __standin.popup.menu.getMenuItemById("ctx-mark").click({}, __standin.popup.window, __standin.popup.window.webContents)
    )
    await expect.poll(() => page.textContent("#out"), { timeout: 10_000 }).toBe("clicked image")
    await expect(app.evaluate(({ __standin }: any) => __standin.popup.open)).resolves.toBe(false)
  })

  it("gives an image's srcURL and mediaType, and a text field's selection and edit flags", async () => {
    const before = (await params()).length
    if (before < 2) {
      await page.click("#pic", { button: "right" })
      await expect.poll(async () => (await params()).length, { timeout: 10_000 }).toBe(2)
    }
    const image = (await params())[1]
    expect(image).toMatchObject({ mediaType: "image", hasImageContents: true, altText: "a dot", linkURL: "", isEditable: false })
    expect(image.srcURL.startsWith("data:image/gif;base64,")).toBe(true)

    await page.focus("#field")
    await page.evaluate(() => (document.getElementById("field") as HTMLInputElement).setSelectionRange(0, 5))
    await page.click("#field", { button: "right", position: { x: 5, y: 5 } })
    await expect.poll(async () => (await params()).length, { timeout: 10_000 }).toBe(3)
    const field = (await params())[2]
    expect(field).toMatchObject({ isEditable: true, inputFieldType: "plainText", formControlType: "input-text", mediaType: "none" })
    expect(field.editFlags).toMatchObject({ canCut: field.selectionText !== "", canCopy: field.selectionText !== "", canPaste: true, canSelectAll: true })
    // Chromium keeps or replaces the selection on a right-click depending on the platform's behaviour: accept both, consistently.
    expect(["hello", "", "hello world"]).toContain(field.selectionText)
  })

  it("gives what context-menu packages call: copyImageAt puts the image on the clipboard, the spell-checker dictionary keeps words", async () => {
    const image = (await params())[1]
    const result = await app.evaluate(
      async ({ BrowserWindow, clipboard }, at) => {
        const win = BrowserWindow.fromId((globalThis as any).ctxWindowId)!
        clipboard.clear()
        win.webContents.copyImageAt(at.x, at.y)
        const deadline = Date.now() + 10_000
        // `has` answers a boolean on Electron before 45 and a promise from 45 on: awaited, it works on both.
        while (!(await clipboard.has("image/png")) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
        const added = win.webContents.session.addWordToSpellCheckerDictionary("stagewright")
        const words = await win.webContents.session.listWordsInSpellCheckerDictionary()
        win.webContents.session.removeWordFromSpellCheckerDictionary("stagewright")
        return { copied: await clipboard.has("image/png"), added, hasWord: words.includes("stagewright") }
      },
      { x: image.x, y: image.y }
    )
    expect(result).toEqual({ copied: true, added: true, hasWord: true })
  })

  it("does not emit context-menu when the page prevents the contextmenu event", async () => {
    const before = (await params()).length
    await page.click("#quiet", { button: "right" })
    await page.click("#text", { button: "right" })
    await expect.poll(async () => (await params()).length, { timeout: 10_000 }).toBe(before + 1)
    const last = (await params())[before]
    expect(last).toMatchObject({ linkURL: "", mediaType: "none", isEditable: false })
  })
})
