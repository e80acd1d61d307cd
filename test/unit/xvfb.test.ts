/**
 * The private Xvfb as a scoped resource (src/layers/driver/xvfb.ts): while its scope is open it is up
 * and accepts X connections from holders of its cookie only; once the scope closes it is gone (reaped,
 * its socket and cookie removed). A server that ignores SIGTERM is killed after the bound; a failed
 * start stops what it started. Needs Xvfb (scripts/setup.mjs installs it).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { chmodSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { displayForLaunch, startXvfb, xHandshake } from "../../src/layers/driver/xvfb.js"
import { isAlive } from "../support/processes.js"

/** The display's socket file, which Xvfb removes when it stops. */
const socketFile = (display: string) => `/tmp/.X11-unix/X${display.slice(1)}`

/** A stand-in "Xvfb" shell script (its pid written to a file), for the failure paths. */
const fakeXvfb = (body: string) => {
  const dir = mkdtempSync(join(tmpdir(), "sw-fake-xvfb-"))
  const pidFile = join(dir, "pid")
  const binary = join(dir, "Xvfb")
  writeFileSync(binary, `#!/bin/sh\necho $$ > ${JSON.stringify(pidFile)}\n${body}\n`)
  chmodSync(binary, 0o755)
  return { binary, pid: () => Number(readFileSync(pidFile, "utf8").trim()) }
}

describe("startXvfb", () => {
  it.live("runs while its scope is open and is stopped and reaped when it closes", () =>
    Effect.gen(function* () {
      const seen = yield* Effect.scoped(
        Effect.gen(function* () {
          const xvfb = yield* startXvfb({ because: "a test asked for one" })
          expect(xvfb.display).toMatch(/^:\d+$/)
          expect(isAlive(xvfb.pid)).toBe(true)
          expect(readFileSync(`/proc/${xvfb.pid}/cmdline`, "utf8")).toContain("Xvfb")
          expect(existsSync(socketFile(xvfb.display))).toBe(true)
          // Only the holder of the session's cookie may connect.
          const cookie = readFileSync(xvfb.xauthority).subarray(-16)
          expect(yield* xHandshake(socketFile(xvfb.display))).toBe(0)
          expect(yield* xHandshake(socketFile(xvfb.display), Buffer.alloc(16, 7))).toBe(0)
          expect(yield* xHandshake(socketFile(xvfb.display), cookie)).toBe(1)
          expect(statSync(xvfb.xauthority).mode & 0o077).toBe(0)
          return xvfb
        })
      )
      expect(isAlive(seen.pid)).toBe(false)
      expect(existsSync(`/proc/${seen.pid}`)).toBe(false) // reaped, not a zombie
      expect(existsSync(socketFile(seen.display))).toBe(false)
      expect(existsSync(seen.xauthority)).toBe(false)
    })
  )

  it.live("a server that ignores SIGTERM and never accepts connections fails the start and is killed", () =>
    Effect.gen(function* () {
      // Ignored signals stay ignored across exec: `sleep` keeps the pid and ignores SIGTERM.
      const fake = fakeXvfb("trap '' TERM\necho 65000 >&3\nexec sleep 60")
      const exit = yield* Effect.exit(Effect.scoped(startXvfb({ binary: fake.binary, because: "a test" })))
      expect(Exit.isFailure(exit)).toBe(true)
      expect(String(Exit.isFailure(exit) ? exit.cause : "")).toContain("does not accept X connections with its cookie")
      expect(isAlive(fake.pid())).toBe(false)
    })
  )

  it.live("a server that exits at start-up fails with its exit and its last words", () =>
    Effect.gen(function* () {
      const fake = fakeXvfb("echo 'Fatal server error: no screens found' >&2\nexit 1")
      const error = yield* Effect.flip(Effect.scoped(startXvfb({ binary: fake.binary, because: "a test" })))
      expect(error.message).toContain("exit code 1")
      expect(error.message).toContain("no screens found")
      expect(error.hint).toContain("set DISPLAY to a running X server")
    })
  )
})

describe("displayForLaunch", () => {
  it.live("--xvfb always gives a headed app a private display instead of the environment's, without WAYLAND_DISPLAY", () =>
    Effect.gen(function* () {
      const pid = yield* Effect.scoped(
        Effect.gen(function* () {
          const given = yield* displayForLaunch("always", "electron", { DISPLAY: ":7", WAYLAND_DISPLAY: "wayland-0", HOME: "/home/x" }, "linux")
          expect(given.display?.source).toBe("xvfb")
          expect(given.display?.note).toBe("private Xvfb, started because --xvfb always is set")
          expect(given.env.DISPLAY).toBe(given.display?.display)
          expect(given.env.DISPLAY).not.toBe(":7")
          expect(given.env.WAYLAND_DISPLAY).toBeUndefined()
          expect(existsSync(given.env.XAUTHORITY!)).toBe(true)
          expect(given.env.HOME).toBe("/home/x")
          return given.display!.xvfbPid!
        })
      )
      expect(isAlive(pid)).toBe(false)
    })
  )

  it.live("--xvfb never with a headed app and no display fails with LaunchFailed before starting anything", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(Effect.scoped(displayForLaunch("never", "standin", { STAGEWRIGHT_STANDIN_HEADED: "1" }, "linux")))
      expect(error._tag).toBe("LaunchFailed")
      expect(error.message).toContain("--xvfb never")
    })
  )

  it.live("a headless stand-in keeps its environment and reports no display", () =>
    Effect.gen(function* () {
      const given = yield* Effect.scoped(displayForLaunch("always", "standin", { HOME: "/h" }, "linux"))
      expect(given).toEqual({ env: { HOME: "/h" } })
    })
  )
})
