/**
 * Headless Linux: the built server over stdio, without DISPLAY and WAYLAND_DISPLAY (the SDK passes a
 * child only HOME, LOGNAME, PATH, SHELL, TERM and USER), launching the stand-in headed
 * (STAGEWRIGHT_STANDIN_HEADED=1: Chromium then needs a display, as Electron does). The server gives the
 * app a private Xvfb, says so, and stops it with the session; --xvfb never fails at once; a missing
 * Xvfb binary is named with its install command. Needs Xvfb (scripts/setup.mjs installs it).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { existsSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PNG } from "pngjs"
import { sampleAppPath } from "../../src/samples.js"
import { startXvfb } from "../../src/layers/driver/xvfb.js"
import { freshUserData, stdioClient } from "../support/mcp.js"
import { descendants, isAlive, waitAllGone } from "../support/processes.js"

const HEADED = { STAGEWRIGHT_STANDIN_HEADED: "1" }

const read = (path: string) => {
  try {
    return readFileSync(path, "utf8")
  } catch {
    return ""
  }
}

/** Live Xvfb processes under the server. */
const xvfbUnder = (pid: number) => descendants(pid).filter((p) => isAlive(p) && read(`/proc/${p}/comm`).trim() === "Xvfb")

/** Chromium's browser process (not its renderers, GPU or utility children) under the server. */
const chromiumBrowsers = (pid: number) =>
  descendants(pid).filter((p) => {
    const args = read(`/proc/${p}/cmdline`).split("\0")
    return isAlive(p) && /\/chromium$/.test(args[0] ?? "") && !args.some((a) => a.startsWith("--type="))
  })

const socketOf = (display: string) => `/tmp/.X11-unix/X${display.slice(1)}`

/** Distinct colours in a PNG (base64): a blank capture has one. */
const distinctColours = (base64: string) => {
  const png = PNG.sync.read(Buffer.from(base64, "base64"))
  const colours = new Set<number>()
  for (let i = 0; i < png.data.length; i += 4) colours.add(png.data.readUInt32BE(i))
  return colours.size
}

describe("a headed launch without a display", () => {
  it("runs the app on a private Xvfb, reports it, and stops it when the app is closed", async () => {
    const mcp = await stdioClient([], HEADED)
    try {
      const launched = await mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } })
      expect(launched.isError, launched.text).toBe(false)
      const display = launched.structured.display
      expect(display).toMatchObject({ source: "xvfb", note: "private Xvfb, started because DISPLAY and WAYLAND_DISPLAY are unset" })
      expect(display.display).toMatch(/^:\d+$/)
      expect(launched.text).toContain(`, display ${display.display})`)
      expect(xvfbUnder(mcp.pid!)).toEqual([display.xvfbPid])
      expect(existsSync(socketOf(display.display))).toBe(true)

      // Chromium runs headed, on that display.
      const browsers = chromiumBrowsers(mcp.pid!)
      expect(browsers.length).toBe(1)
      expect(read(`/proc/${browsers[0]}/cmdline`).split("\0")).not.toContain("--headless=new")
      expect(read(`/proc/${browsers[0]}/environ`).split("\0")).toContain(`DISPLAY=${display.display}`)
      expect(
        read(`/proc/${browsers[0]}/environ`)
          .split("\0")
          .some((v) => v.startsWith("XAUTHORITY="))
      ).toBe(true)

      const heading = await mcp.call("electron_wait_for", { target: "role=heading[level=1]" })
      expect(heading.isError, heading.text).toBe(false)
      const shot = await mcp.call("electron_screenshot", {})
      expect(shot.isError, shot.text).toBe(false)
      const image = shot.raw.content.find((c: { type: string }) => c.type === "image")
      expect(distinctColours(image.data)).toBeGreaterThan(10)

      const status = await mcp.call("electron_status", {})
      expect(status.text).toContain(`display ${display.display} (private Xvfb`)
      expect(status.structured.app.display).toEqual(display)

      const closed = await mcp.call("electron_close", {})
      expect(closed.isError, closed.text).toBe(false)
      // The close answers after the Xvfb's exit event (it is reaped): nothing to wait for here.
      expect(existsSync(`/proc/${display.xvfbPid}`)).toBe(false)
      expect(xvfbUnder(mcp.pid!)).toEqual([])
      expect(existsSync(socketOf(display.display))).toBe(false)
    } finally {
      await mcp.close()
    }
  })

  it("stops the private Xvfb when the launch fails after it started", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sw-xvfb-fail-"))
    const seen = join(dir, "display.txt")
    const main = join(dir, "main.js")
    writeFileSync(main, `require("fs").writeFileSync(${JSON.stringify(seen)}, String(process.env.DISPLAY))\nprocess.exit(3)\n`)
    const mcp = await stdioClient([], HEADED)
    try {
      const launched = await mcp.call("electron_launch", { app: main, timeoutMs: 15_000 })
      expect(launched.code, launched.text).toBe("LAUNCH_FAILED")
      expect(read(seen)).toMatch(/^:\d+$/) // the app was given the private display
      expect(xvfbUnder(mcp.pid!)).toEqual([])
      expect(existsSync(socketOf(read(seen)))).toBe(false)
    } finally {
      await mcp.close()
    }
  })

  it("stops the private Xvfb with the server (SIGTERM while the app runs)", async () => {
    const mcp = await stdioClient([], HEADED)
    const launched = await mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } })
    expect(launched.isError, launched.text).toBe(false)
    const { xvfbPid, display } = launched.structured.display
    expect(isAlive(xvfbPid)).toBe(true)
    // The transport reports the server's exit (its 'close' event); the server exits only after its finalizers.
    const exited = new Promise<void>((resolve) => {
      mcp.client.onclose = () => resolve()
    })
    process.kill(mcp.pid!, "SIGTERM")
    await exited
    expect(isAlive(xvfbPid)).toBe(false)
    expect(existsSync(socketOf(display))).toBe(false)
    await mcp.close()
  })

  it("leaves neither the app nor its private Xvfb behind when the server is SIGKILLed", async () => {
    // The stand-in's own watch of its launcher is off, as a real Electron has none: the server's reaper ends both.
    const mcp = await stdioClient([], { ...HEADED, STAGEWRIGHT_STANDIN_WATCH_PARENT: "0" })
    const launched = await mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } })
    expect(launched.isError, launched.text).toBe(false)
    const { xvfbPid } = launched.structured.display
    const tree = descendants(mcp.pid!)
    expect(tree).toContain(xvfbPid)
    process.kill(mcp.pid!, "SIGKILL")
    expect(await waitAllGone(tree)).toEqual([])
    await mcp.close().catch(() => undefined)
  })

  it("--xvfb never fails at once with what to do, and starts nothing", async () => {
    const mcp = await stdioClient(["--xvfb", "never"], HEADED)
    try {
      const launched = await mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } })
      expect(launched.code, launched.text).toBe("LAUNCH_FAILED")
      expect(launched.text).toContain("DISPLAY and WAYLAND_DISPLAY are unset and --xvfb never forbids starting a private Xvfb")
      expect(launched.text).toContain("--xvfb auto")
      expect(descendants(mcp.pid!).filter(isAlive)).toEqual([])
    } finally {
      await mcp.close()
    }
  })

  it("without an Xvfb binary on PATH, the error names the install command", async () => {
    // A PATH with node (the stand-in's interpreter) and nothing else.
    const bin = mkdtempSync(join(tmpdir(), "sw-no-xvfb-"))
    symlinkSync(process.execPath, join(bin, "node"))
    const mcp = await stdioClient([], { ...HEADED, PATH: bin })
    try {
      const launched = await mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } })
      expect(launched.code, launched.text).toBe("LAUNCH_FAILED")
      expect(launched.text).toContain("no Xvfb binary is on PATH")
      expect(launched.text).toContain("sudo apt-get install -y xvfb")
      expect(descendants(mcp.pid!).filter(isAlive)).toEqual([])
    } finally {
      await mcp.close()
    }
  })
})

describe("a headed launch with a display", () => {
  it.live("auto uses DISPLAY from the environment and starts no Xvfb of its own", () =>
    Effect.scoped(
      Effect.gen(function* () {
        // The test's own X server plays the desktop's (its cookie is in XAUTHORITY, as a desktop session's is).
        const desktop = yield* startXvfb({ because: "the test needs a desktop display" })
        const mcp = yield* Effect.acquireRelease(
          Effect.promise(() => stdioClient([], { ...HEADED, DISPLAY: desktop.display, XAUTHORITY: desktop.xauthority })),
          (client) => Effect.promise(() => client.close())
        )
        const launched = yield* Effect.promise(() =>
          mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } })
        )
        expect(launched.isError, launched.text).toBe(false)
        expect(launched.structured.display).toEqual({ display: desktop.display, source: "DISPLAY", note: "DISPLAY from the environment" })
        expect(launched.text).toContain(`, display ${desktop.display})`)
        expect(xvfbUnder(mcp.pid!)).toEqual([])
        const closed = yield* Effect.promise(() => mcp.call("electron_close", {}))
        expect(closed.isError, closed.text).toBe(false)
      })
    )
  )

  it("--xvfb always starts a private Xvfb anyway, and the app uses it", async () => {
    const mcp = await stdioClient(["--xvfb", "always"], { ...HEADED, DISPLAY: ":65001" })
    try {
      const launched = await mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } })
      expect(launched.isError, launched.text).toBe(false)
      expect(launched.structured.display).toMatchObject({ source: "xvfb", note: "private Xvfb, started because --xvfb always is set" })
      expect(launched.structured.display.display).not.toBe(":65001")
      const browsers = chromiumBrowsers(mcp.pid!)
      expect(read(`/proc/${browsers[0]}/environ`).split("\0")).toContain(`DISPLAY=${launched.structured.display.display}`)
      const closed = await mcp.call("electron_close", {})
      expect(closed.isError, closed.text).toBe(false)
      expect(xvfbUnder(mcp.pid!)).toEqual([])
    } finally {
      await mcp.close()
    }
  })
})
