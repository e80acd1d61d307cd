import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { displayCheck } from "../../src/cli/doctor-display.js"

// doctor's display line is the launch's own decision (displaySituation) plus whether it can be carried out.
const withXvfb = mkdtempSync(join(tmpdir(), "sw-doctor-display-"))
writeFileSync(join(withXvfb, "Xvfb"), "#!/bin/sh\n")
chmodSync(join(withXvfb, "Xvfb"), 0o755)
const empty = mkdtempSync(join(tmpdir(), "sw-doctor-nodisplay-"))
afterAll(() => {
  rmSync(withXvfb, { recursive: true, force: true })
  rmSync(empty, { recursive: true, force: true })
})

describe("doctor's display check", () => {
  it("says a launch starts a private Xvfb when none is set and Xvfb is on PATH", () => {
    const { check, facts } = displayCheck({ PATH: withXvfb }, "electron", "linux", "auto")
    expect(check.ok).toBe(true)
    expect(check.detail).toContain("private Xvfb")
    expect(facts.xvfb).toBe(join(withXvfb, "Xvfb"))
  })

  it("warns with the install command when a needed Xvfb is missing", () => {
    const { check } = displayCheck({ PATH: empty }, "electron", "linux", "auto")
    expect(check).toMatchObject({ ok: false, required: false })
    expect(check.detail).toContain("no Xvfb is on PATH")
    expect(check.next).toContain("apt-get install -y xvfb")
  })

  it("warns that --xvfb never without a display fails a headed launch", () => {
    const { check } = displayCheck({ PATH: withXvfb }, "electron", "linux", "never")
    expect(check.ok).toBe(false)
    expect(check.detail).toContain("--xvfb never")
    expect(check.next).toContain("--xvfb auto")
  })

  it("uses DISPLAY from the environment, and needs nothing for the headless stand-in", () => {
    expect(displayCheck({ PATH: empty, DISPLAY: ":5" }, "electron", "linux", "auto").check).toMatchObject({ ok: true })
    expect(displayCheck({ PATH: empty, DISPLAY: ":5" }, "electron", "linux", "auto").check.detail).toContain("DISPLAY=:5")
    const standin = displayCheck({ PATH: empty }, "standin", "linux", "auto").check
    expect(standin.ok).toBe(true)
    expect(standin.detail).toContain("headless")
    // The stand-in in headed mode needs a display like real Electron.
    expect(displayCheck({ PATH: empty, STAGEWRIGHT_STANDIN_HEADED: "1" }, "standin", "linux", "auto").check.ok).toBe(false)
  })
})
