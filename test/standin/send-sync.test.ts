/**
 * ipcRenderer.sendSync -> ipcMain.on + event.returnValue, in the fixture app
 * test/fixtures/electron-standin-tests/send-sync (Electron's real API only). On the stand-in the message is a
 * synchronous request that the main process's Fetch interception answers (see the stand-in README); what only
 * the stand-in does (its answer to a reply that is never sent, its CSP limit, its token) is "[stand-in only]".
 */
import type { ConsoleMessage, ElectronApplication, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { fixture, isStandin, launch, loadedFirstWindow, runtime } from "./helpers.js"

type SyncResult = { ok: true; value: any; isUndefined: boolean } | { ok: false; message: string }

describe(`ipcRenderer.sendSync on ${runtime.kind}`, () => {
  let app: ElectronApplication
  let page: Page
  const sync = (channel: string, ...args: Array<unknown>): Promise<SyncResult> =>
    page.evaluate(([ch, rest]) => (window as any).syncFixture.sync(ch, ...(rest as Array<unknown>)), [channel, args] as const)
  const load = async (file: string, title: string): Promise<void> => {
    await app.evaluate(({ BrowserWindow }, name) => BrowserWindow.getAllWindows()[0]!.loadFile(name), file)
    await page.waitForFunction((expected) => document.title === expected && Boolean((window as any).syncFixture), title)
  }

  /** Resolves with the main process's stderr (from now) once it contains `text`. */
  const stderrUntil = (text: string): Promise<string> =>
    new Promise((resolve) => {
      const stderr = app.process().stderr!
      let seen = ""
      const onData = (chunk: Buffer) => {
        seen += chunk.toString()
        if (!seen.includes(text)) return
        stderr.off("data", onData)
        resolve(seen)
      }
      stderr.on("data", onData)
    })

  beforeAll(async () => {
    app = await launch(fixture("send-sync"))
    page = await loadedFirstWindow(app, /index\.html$/)
  })

  afterAll(async () => {
    await app?.close()
  })

  it("returns the listener's event.returnValue, with structured JSON arguments, and gives Electron's event", async () => {
    const payload = { list: [1, "two", { three: 3 }, null], nested: { flag: true, text: "é \u2713" }, empty: [] }
    const result = await sync("sync:echo", payload)
    expect(result).toEqual({
      ok: true,
      isUndefined: false,
      value: {
        received: payload,
        senderId: await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.webContents.id),
        senderUrl: page.url(),
        sameWindow: true
      }
    })
  })

  it("works while the preload runs, before any page script", async () => {
    const atStart = await page.evaluate(() => (window as any).syncFixture.atStart)
    expect(atStart).toMatchObject({ ok: true, value: { received: "preload", sameWindow: true } })
  })

  it("waits for a returnValue set after an await", async () => {
    await expect(sync("sync:later", 21)).resolves.toEqual({ ok: true, value: 42, isUndefined: false })
  })

  it("returns undefined when the listener sets returnValue to undefined", async () => {
    await expect(sync("sync:undefined")).resolves.toEqual({ ok: true, isUndefined: true })
  })

  it("emits ipc-message-sync on the webContents, then webContents.ipc, then ipcMain, with one event", async () => {
    await app.evaluate(({ BrowserWindow, ipcMain }) => {
      const contents = BrowserWindow.getAllWindows()[0]!.webContents
      const seen: Array<string> = []
      const events = new Set<unknown>()
      ;(globalThis as any).syncOrder = { seen, events }
      contents.once("ipc-message-sync", (event, channel, arg) => {
        seen.push(`webContents:${channel}:${arg}`)
        events.add(event)
      })
      contents.ipc.once("sync:order", (event, arg) => {
        seen.push(`ipc:${arg}`)
        events.add(event)
      })
      ipcMain.once("sync:order", (event, arg) => {
        seen.push(`ipcMain:${arg}`)
        events.add(event)
        event.returnValue = seen.length
      })
    })
    await expect(sync("sync:order", "x")).resolves.toEqual({ ok: true, value: 3, isUndefined: false })
    const order = await app.evaluate(() => ({ seen: (globalThis as any).syncOrder.seen, distinct: (globalThis as any).syncOrder.events.size }))
    expect(order).toEqual({ seen: ["webContents:sync:order:x", "ipc:x", "ipcMain:x"], distinct: 1 })
  })

  it("works in a page whose CSP is default-src 'self'", async () => {
    await load("self-csp.html", "Self CSP")
    await expect(sync("sync:later", 5)).resolves.toEqual({ ok: true, value: 10, isUndefined: false })
    await load("index.html", "Send Sync")
  })

  it.skipIf(!isStandin)("[stand-in only] without any listener: Electron's warning and { error: 'reply was never sent' } at once", async () => {
    const warning = app.waitForEvent("console", (message: ConsoleMessage) => message.text().includes("called ipcRenderer.sendSync() with 'sync:nobody'"))
    const result = await sync("sync:nobody", 1)
    expect(result).toEqual({ ok: true, value: { error: "reply was never sent" }, isUndefined: false })
    const message = await warning
    expect(message.type()).toBe("warning")
    expect(message.text()).toMatch(/^WebContents #\d+ called ipcRenderer\.sendSync\(\) with 'sync:nobody' channel without listeners\.$/)
  })

  it.skipIf(!isStandin)(
    "[stand-in only] a throwing listener: reported as the main process's uncaught exception; the renderer gets 'reply was never sent'",
    async () => {
      const report = stderrUntil("deliberate listener failure")
      await expect(sync("sync:throws")).resolves.toEqual({ ok: true, value: { error: "reply was never sent" }, isUndefined: false })
      expect(await report).toContain("A JavaScript error occurred in the main process\nUncaught Exception:\nError: deliberate listener failure")
    }
  )

  it.skipIf(!isStandin)("[stand-in only] a page CSP that forbids connections makes sendSync throw an error that says so", async () => {
    await load("no-connect-csp.html", "No Connect CSP")
    const result = await sync("sync:echo", 1)
    expect(result.ok).toBe(false)
    expect(result.ok === false && result.message).toMatch(
      /^ipcRenderer\.sendSync\('sync:echo'\) failed on the Electron stand-in: .*Content-Security-Policy blocks it: its connect-src \(or default-src\) must allow 'self'/
    )
    await load("index.html", "Send Sync")
  })

  it.skipIf(!isStandin)("[stand-in only] a page script posting a forged message to the sync endpoint is refused and reaches no listener", async () => {
    await app.evaluate(({ ipcMain }) => {
      ;(globalThis as any).forged = 0
      ipcMain.on("sync:spy", (event) => {
        ;(globalThis as any).forged += 1
        event.returnValue = "reached"
      })
    })
    const answer = await page.evaluate(async () => {
      const response = await fetch("https://ipc.standin.invalid/sync", { method: "POST", body: JSON.stringify({ k: "guess", ch: "sync:spy", args: [] }) })
      return { status: response.status, body: await response.text() }
    })
    expect(answer.status).toBe(403)
    expect(await app.evaluate(() => (globalThis as any).forged)).toBe(0)
    await expect(sync("sync:spy")).resolves.toEqual({ ok: true, value: "reached", isUndefined: false })
  })
})
