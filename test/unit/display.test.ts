/**
 * Which display a launch gives its app (src/layers/driver/display.ts), as a pure decision: the platform,
 * the environment the app would get, whether it runs headed and the --xvfb mode. And where the private
 * Xvfb's binary is looked for (PATH, absolute entries only).
 */
import { describe, expect, it } from "@effect/vitest"
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { displaySituation, describeDisplay, runsHeaded, XVFB_INSTALL } from "../../src/layers/driver/display.js"
import { findXvfb } from "../../src/layers/driver/xvfb.js"

describe("displaySituation", () => {
  it("auto on Linux without DISPLAY or WAYLAND_DISPLAY starts a private Xvfb, and says why", () => {
    const situation = displaySituation({}, "linux", "auto")
    expect(situation).toMatchObject({ action: "start-xvfb", because: "DISPLAY and WAYLAND_DISPLAY are unset" })
  })

  it("an empty DISPLAY counts as unset", () => {
    expect(displaySituation({ DISPLAY: "", WAYLAND_DISPLAY: "" }, "linux", "auto").action).toBe("start-xvfb")
  })

  it("auto uses the environment's display: DISPLAY first, else WAYLAND_DISPLAY", () => {
    expect(displaySituation({ DISPLAY: ":3", WAYLAND_DISPLAY: "wayland-0" }, "linux", "auto")).toMatchObject({
      action: "use",
      variable: "DISPLAY",
      display: ":3"
    })
    expect(displaySituation({ WAYLAND_DISPLAY: "wayland-1" }, "linux", "auto")).toMatchObject({
      action: "use",
      variable: "WAYLAND_DISPLAY",
      display: "wayland-1"
    })
  })

  it("always starts a private Xvfb even when a display exists", () => {
    expect(displaySituation({ DISPLAY: ":0" }, "linux", "always")).toMatchObject({ action: "start-xvfb", because: "--xvfb always is set" })
  })

  it("never without a display fails, naming the flag, DISPLAY and the install command", () => {
    const situation = displaySituation({}, "linux", "never")
    expect(situation.action).toBe("fail")
    if (situation.action !== "fail") return
    expect(situation.reason).toContain("--xvfb never")
    expect(situation.reason).toContain("DISPLAY")
    expect(situation.hint).toContain("--xvfb auto")
    expect(situation.hint).toContain(XVFB_INSTALL)
  })

  it("never with a display uses it", () => {
    expect(displaySituation({ DISPLAY: ":1" }, "linux", "never")).toMatchObject({ action: "use", display: ":1" })
  })

  it("a headless app needs no display, whatever the mode", () => {
    for (const mode of ["auto", "always", "never"] as const) {
      expect(displaySituation({}, "linux", mode, false).action).toBe("none")
    }
  })

  it("outside Linux nothing is started or required", () => {
    for (const platform of ["darwin", "win32"] as const) {
      for (const mode of ["auto", "always", "never"] as const) {
        const situation = displaySituation({}, platform, mode)
        expect(situation.action).toBe("none")
        expect(situation.reason).toContain(platform)
      }
    }
  })
})

describe("runsHeaded", () => {
  it("real Electron always runs headed; the stand-in only with STAGEWRIGHT_STANDIN_HEADED=1", () => {
    expect(runsHeaded("electron", {})).toBe(true)
    expect(runsHeaded("standin", {})).toBe(false)
    expect(runsHeaded("standin", { STAGEWRIGHT_STANDIN_HEADED: "0" })).toBe(false)
    expect(runsHeaded("standin", { STAGEWRIGHT_STANDIN_HEADED: "1" })).toBe(true)
  })
})

describe("describeDisplay", () => {
  it("names the display and where it comes from", () => {
    expect(describeDisplay({ display: ":99", source: "xvfb", xvfbPid: 1, note: "private Xvfb, started because DISPLAY and WAYLAND_DISPLAY are unset" })).toBe(
      "display :99 (private Xvfb, started because DISPLAY and WAYLAND_DISPLAY are unset)"
    )
  })
})

describe("findXvfb", () => {
  const folderWith = (file?: { name: string; mode: number }) => {
    const dir = mkdtempSync(join(tmpdir(), "sw-xvfb-path-"))
    if (file) {
      writeFileSync(join(dir, file.name), "#!/bin/sh\n")
      chmodSync(join(dir, file.name), file.mode)
    }
    return dir
  }

  it("finds an executable Xvfb on PATH", () => {
    const dir = folderWith({ name: "Xvfb", mode: 0o755 })
    expect(findXvfb(`${folderWith()}:${dir}`)).toBe(join(dir, "Xvfb"))
  })

  it("skips a non-executable file, a relative entry and a PATH without it", () => {
    expect(findXvfb(folderWith({ name: "Xvfb", mode: 0o644 }))).toBeUndefined()
    expect(findXvfb(`.:relative/bin:${folderWith()}`)).toBeUndefined()
    expect(findXvfb("")).toBeUndefined()
  })
})
