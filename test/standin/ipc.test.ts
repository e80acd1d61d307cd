/**
 * IPC between a preload (contextBridge + ipcRenderer) and the main process (ipcMain, webContents.send),
 * and main-to-page evaluation with webContents.executeJavaScript. ipcRenderer.sendSync: send-sync.test.ts.
 */
import type { ElectronApplication, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { fixture, launch, loadedFirstWindow, runtime } from "./helpers.js"

describe(`IPC on ${runtime.kind}`, () => {
  let app: ElectronApplication
  let page: Page

  beforeAll(async () => {
    app = await launch(fixture("cjs-app"))
    page = await loadedFirstWindow(app, /index\.html$/)
  })

  afterAll(async () => {
    await app?.close()
  })

  it("invokes a handler and resolves with its value", async () => {
    await expect(page.evaluate(() => (window as any).fixture.add(20, 22))).resolves.toBe(42)
  })

  it("gives handlers Electron's event: sender, senderFrame.url, BrowserWindow.fromWebContents", async () => {
    const info = await page.evaluate(() => (window as any).fixture.info())
    expect(info).toEqual({ name: "Standin Fixture", senderUrl: page.url(), sameWindow: true })
  })

  it("rejects with Electron's message when the handler throws", async () => {
    const message = await page.evaluate(() =>
      (window as any).fixture.fail().then(
        () => "resolved",
        (e: Error) => e.message
      )
    )
    expect(message).toBe("Error invoking remote method 'math:fail': Error: deliberate failure")
  })

  it("rejects with Electron's message when no handler is registered", async () => {
    const message = await page.evaluate(() =>
      (window as any).fixture.missing().then(
        () => "resolved",
        (e: Error) => e.message
      )
    )
    expect(message).toBe("Error invoking remote method 'math:missing': Error: No handler registered for 'math:missing'")
  })

  it("delivers ipcRenderer.send to ipcMain.on and event.reply back to ipcRenderer.on", async () => {
    await page.evaluate(() => (window as any).fixture.greet("Grace"))
    await expect.poll(() => page.textContent("#greeting"), { timeout: 10_000 }).toBe("Hello, Grace!")
  })

  it("delivers webContents.send to the preload's listeners, in order", async () => {
    await app.evaluate(({ BrowserWindow }) => {
      const contents = BrowserWindow.getAllWindows()[0]!.webContents
      contents.send("file:opened", "/first")
      contents.send("file:opened", "/second")
    })
    await expect.poll(() => page.textContent("#opened-file"), { timeout: 10_000 }).toBe("/second")
  })

  it("runs webContents.executeJavaScript in the page: awaits promises, returns by value, rejects with a rejected promise", async () => {
    const results = await app.evaluate(async ({ BrowserWindow }) => {
      const contents = BrowserWindow.getAllWindows()[0]!.webContents
      const value = await contents.executeJavaScript("new Promise((resolve) => setTimeout(() => resolve({ title: document.title, n: 1 + 1 }), 10))")
      const error = await contents.executeJavaScript("Promise.reject(new Error('page failure'))").then(
        () => null,
        (e: Error) => e.message
      )
      return { value, error }
    })
    expect(results.value).toEqual({ title: await page.title(), n: 2 })
    expect(results.error).toContain("page failure")
  })

  it("does not let page scripts reach the stand-in's IPC plumbing", async () => {
    const globals = await page.evaluate(() => Object.getOwnPropertyNames(window).filter((name) => name.startsWith("__stagewright") || name.startsWith("__sw_")))
    expect(globals).toEqual([])
  })
})
