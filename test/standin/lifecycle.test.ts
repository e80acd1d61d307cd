/**
 * Main-process lifecycle: errors that Electron's main process survives (unhandled rejections, uncaught
 * exceptions, a rejected loadURL) and the quit sequence.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createServer } from "node:net"
import type { ElectronApplication, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { isAlive } from "../support/processes.js"
import { appFootprint, eventually, fixture, isStandin, launch, loadedFirstWindow, runtime, waitUntilGone } from "./helpers.js"

/** A local port with nothing listening on it. */
const closedPort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))))
    })
  })

describe(`main process errors and quitting on ${runtime.kind}`, () => {
  let app: ElectronApplication
  let page: Page
  let closed = false

  beforeAll(async () => {
    app = await launch(fixture("cjs-app"))
    app.once("close", () => (closed = true))
    page = await loadedFirstWindow(app, /index\.html$/)
  })

  afterAll(async () => {
    if (app && !closed) await app.close()
  })

  it("survives an unhandled rejection, an uncaught exception (stand-in: logged) and an unreachable loadURL (which rejects like Electron)", async () => {
    const stderr: Array<string> = []
    app.process().stderr?.on("data", (chunk) => stderr.push(String(chunk)))
    await app.evaluate((_electron, throwToo) => {
      void Promise.reject(new Error("nobody handles this rejection"))
      // A real Electron shows an uncaught exception in a modal error box, which would block a headless run.
      if (throwToo) {
        setTimeout(() => {
          throw new Error("thrown from a timer")
        }, 0)
      }
    }, isStandin)
    const port = await closedPort()
    const failure = await app.evaluate(async ({ BrowserWindow }, url) => {
      const win = new BrowserWindow({ show: false })
      const failed: Array<unknown> = []
      win.webContents.on("did-fail-load", (_event: unknown, code: number, description: string, validatedURL: string, isMainFrame: boolean) =>
        failed.push([code, description, validatedURL, isMainFrame])
      )
      const error = await win.loadURL(url).then(
        () => null,
        (e: any) => ({ message: e.message, code: e.code, errno: e.errno })
      )
      win.loadURL(url) // left unhandled on purpose, as apps often do
      win.destroy()
      return { error, failed }
    }, `http://127.0.0.1:${port}/`)
    expect(failure.error).toEqual({
      message: `ERR_CONNECTION_REFUSED (-102) loading 'http://127.0.0.1:${port}/'`,
      code: "ERR_CONNECTION_REFUSED",
      errno: -102
    })
    expect(failure.failed).toEqual([[-102, "ERR_CONNECTION_REFUSED", `http://127.0.0.1:${port}/`, true]])
    if (isStandin) {
      await expect.poll(() => stderr.join(""), { timeout: 10_000 }).toContain("nobody handles this rejection")
      await expect.poll(() => stderr.join(""), { timeout: 10_000 }).toContain("thrown from a timer")
    } else {
      await new Promise((resolve) => setTimeout(resolve, 300))
    }
    await expect(app.evaluate(({ app }) => app.getName())).resolves.toBe("Standin Fixture")
    expect(isAlive(app.process().pid!)).toBe(true)
    await expect(page.textContent("#greeting")).resolves.toBe("Welcome")
  })

  it("quits with before-quit, will-quit and quit in order, closing windows first", async () => {
    const footprint = await appFootprint(app)
    const logDir = mkdtempSync(join(tmpdir(), "standin-quit-"))
    const log = join(logDir, "events.txt")
    await app.evaluate(({ app, BrowserWindow }, file) => {
      const fs = (process as any).mainModule.require("fs")
      const note = (text: string) => fs.appendFileSync(file, text + "\n")
      app.on("before-quit", () => note(`before-quit windows=${BrowserWindow.getAllWindows().length}`))
      app.on("will-quit", () => note(`will-quit windows=${BrowserWindow.getAllWindows().length}`))
      app.on("quit", (_event: unknown, code: number) => note(`quit ${code}`))
    }, log)
    await app.close()
    const events = readFileSync(log, "utf8").trim().split("\n")
    rmSync(logDir, { recursive: true, force: true })
    expect(events).toEqual(["before-quit windows=1", "will-quit windows=0", "quit 0"])
    await expect(waitUntilGone(footprint.pids, footprint.paths)).resolves.toEqual({ pids: [], paths: [] })
  })
})

describe(`quitting and the single-instance lock on ${runtime.kind}`, () => {
  it("quits when the last window closes and no window-all-closed listener exists", async () => {
    const app = await launch(fixture("bare/main.js"))
    const page = await loadedFirstWindow(app, /^data:/)
    const footprint = await appFootprint(app)
    const exited = new Promise((resolve) => app.process().once("exit", resolve))
    await page.close()
    await exited
    await expect(waitUntilGone(footprint.pids, footprint.paths)).resolves.toEqual({ pids: [], paths: [] })
  })

  it("gives the single-instance lock to the first instance; a second one forwards argv, cwd and data, then quits", async () => {
    const userData = mkdtempSync(join(tmpdir(), "standin-single-"))
    const env = { FIXTURE_USER_DATA: userData }
    const first = await launch(fixture("single-instance"), { args: ["--first"], env })
    try {
      await loadedFirstWindow(first, /^data:/)
      await expect(first.evaluate(({ app }) => app.hasSingleInstanceLock())).resolves.toBe(true)
      const second = spawn(runtime.executablePath, [fixture("single-instance"), "--second"], {
        cwd: tmpdir(),
        env: { ...process.env, ...env },
        stdio: "ignore"
      })
      const exitCode = await new Promise<number | null>((resolve) => second.once("exit", (code) => resolve(code)))
      expect(exitCode).toBe(0)
      const seen: Array<any> = await eventually(
        () => first.evaluate(() => (globalThis as any).fixtureState.secondInstances),
        (list: Array<any>) => list.length === 1
      )
      // Chromium may add switches to the forwarded argv: only the presence of ours is certain.
      expect(seen[0].argv).toContain("--second")
      expect(seen[0].argv).not.toContain("--first")
      expect(seen[0]).toMatchObject({ workingDirectory: tmpdir(), additionalData: { launchedWith: "second" } })
    } finally {
      await first.close()
      rmSync(userData, { recursive: true, force: true })
    }
  })
})
