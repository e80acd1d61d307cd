/**
 * Downloads: the session's `will-download` with a DownloadItem (the protocols fixture app saves into
 * FIXTURE_DOWNLOADS with item.setSavePath), its `updated` and `done` events and the file on disk.
 */
import { _electron, type ElectronApplication, type Page } from "playwright-core"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { fixture, launch, runtime } from "./helpers.js"

describe(`downloads on ${runtime.kind}`, () => {
  let app: ElectronApplication
  let page: Page
  const folder = mkdtempSync(join(tmpdir(), "stagewright-downloads-"))

  beforeAll(async () => {
    app = await launch(fixture("protocols"), { env: { FIXTURE_DOWNLOADS: folder } })
    page = await app.firstWindow()
    await page.waitForSelector("body[data-ready=true]")
  })

  afterAll(async () => {
    await app?.close()
    rmSync(folder, { recursive: true, force: true })
  })

  it("will-download gets the item; setSavePath decides where the file goes; done reports 'completed'", async () => {
    const done = app.evaluate(
      ({ session }) =>
        new Promise((resolve) => session.defaultSession.once("will-download", (_event, item) => item.once("done", (_e, state) => resolve(state))))
    )
    await page.click("#download")
    expect(await done).toBe("completed")
    const [record] = await app.evaluate(() => (globalThis as any).protocolFixture.downloads)
    expect(record).toMatchObject({
      filename: "report.bin",
      url: "app://bundle/report.bin",
      state: "completed",
      received: 3000,
      total: 3000,
      savePath: join(folder, "report.bin")
    })
    expect(record.updates).toBeGreaterThan(0)
    expect(readFileSync(join(folder, "report.bin"))).toEqual(Buffer.alloc(3000, 7))
  })

  it("event.preventDefault() in will-download cancels the download: nothing is saved", async () => {
    const state = app.evaluate(
      ({ session }) =>
        new Promise((resolve) =>
          session.defaultSession.once("will-download", (event, item) => {
            event.preventDefault()
            setImmediate(() => resolve(item.getState()))
          })
        )
    )
    await page.click("#download")
    expect(await state).toBe("cancelled")
    expect(readdirSync(folder)).toEqual(["report.bin"])
  })
})

describe(`downloads without a save path, launched with acceptDownloads on ${runtime.kind}`, () => {
  let app: ElectronApplication
  let page: Page

  beforeAll(async () => {
    app = await _electron.launch({ executablePath: runtime.executablePath, args: [fixture("fidelity")], acceptDownloads: true, timeout: 30_000 })
    page = await app.firstWindow()
    await page.waitForSelector("body[data-ready=true]")
  })

  afterAll(async () => {
    await app?.close()
  })

  it("the automation's acceptDownloads decides (Electron >= 30): no save dialog, the file arrives, done is 'completed'", async () => {
    const done = app.evaluate(
      ({ session }) =>
        new Promise((resolve) =>
          session.defaultSession.once("will-download", (_event, item) =>
            item.once("done", (_e, state) => resolve({ state, received: item.getReceivedBytes() }))
          )
        )
    )
    const server = await app.evaluate(() => (globalThis as any).fidelity.server as string)
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.evaluate((href) => {
        const link = document.createElement("a")
        link.href = href
        link.download = "data.bin"
        document.body.append(link)
        link.click()
      }, `${server}/download`)
    ])
    expect(await done).toEqual({ state: "completed", received: 2048 })
    expect(download.suggestedFilename()).toBe("data.bin")
    expect(readFileSync((await download.path())!)).toEqual(Buffer.alloc(2048, 5))
  })
})
