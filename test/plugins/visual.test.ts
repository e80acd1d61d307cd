/**
 * The visual plugin end to end over MCP on the `a11y` sample app: a baseline, a zero mismatch on the same
 * screen, a non-zero ratio with a diff image after a change, masks, listing and replacing baselines.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { existsSync, mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PNG } from "pngjs"
import { packageRoot } from "../../src/layers/driver/electron-runtime.js"
import { freshUserData, inMemoryClient, stdioClient, type TestClient } from "../support/mcp.js"

const app = join(packageRoot(), "test", "fixtures", "apps", "a11y")
const outputDir = mkdtempSync(join(tmpdir(), "stagewright-visual-"))
let mcp: TestClient

beforeAll(async () => {
  mcp = await inMemoryClient({ plugins: ["visual"], outputDir })
  const launched = await mcp.call("electron_launch", { app, env: { SAMPLE_APP_USER_DATA: freshUserData() } })
  expect(launched.isError, launched.text).toBe(false)
  expect((await mcp.call("electron_wait_for", { target: 'css=body[data-ready="true"]' })).isError).toBe(false)
})

afterAll(async () => {
  await mcp?.close()
})

describe("visual plugin", () => {
  it("creates a baseline and lists it with its size, date, window size and scale", async () => {
    const empty = await mcp.call("electron_visual_baselines")
    expect(empty.structured.baselines).toEqual([])
    const saved = await mcp.call("electron_visual_update_baseline", { name: "home" })
    expect(saved.isError, saved.text).toBe(false)
    expect(saved.text).toContain("new baseline")
    expect(saved.structured.file).toBe(join(outputDir, "visual-baselines", "home.png"))
    expect(saved.structured.info).toMatchObject({ window: { width: 800, height: 600 }, deviceScaleFactor: 1 })
    const button = await mcp.call("electron_visual_update_baseline", { name: "slow-button", target: "testid=slow-task" })
    expect(button.isError, button.text).toBe(false)
    const list = await mcp.call("electron_visual_baselines")
    expect(list.structured.baselines.map((b: any) => b.name)).toEqual(["home", "slow-button"])
    expect(list.structured.baselines[0].bytes).toBeGreaterThan(1000)
    expect(list.text).toMatch(/home {2}\d+\.\d KB {2}\d{4}-\d\d-\d\dT.* window 800x600 @1x/)
  })

  it("reports 0 on the same screen", async () => {
    const same = await mcp.call("electron_visual_compare", { name: "home" })
    expect(same.isError, same.text).toBe(false)
    expect(same.structured.ratio).toBe(0)
    expect(same.structured.diffFile).toBeUndefined()
    expect(same.text).toContain("baseline window 800x600 @1x")
    expect(same.text).toContain("current window 800x600 @1x")
    const element = await mcp.call("electron_visual_compare", { name: "slow-button", target: "testid=slow-task" })
    expect(element.structured.ratio).toBe(0)
  })

  it("reports a non-zero ratio and writes a diff image after a change; masks hide it", async () => {
    expect((await mcp.call("electron_click", { target: "testid=slow-task" })).isError).toBe(false)
    expect((await mcp.call("electron_expect_text", { target: "testid=status", text: "Slow task done" })).isError).toBe(false)
    const changed = await mcp.call("electron_visual_compare", { name: "home" })
    expect(changed.isError, changed.text).toBe(false)
    expect(changed.structured.ratio).toBeGreaterThan(0)
    expect(changed.structured.ratio).toBeLessThan(0.05)
    expect(existsSync(changed.structured.diffFile)).toBe(true)
    expect(changed.structured.diffFile.startsWith(outputDir)).toBe(true)
    const diff = PNG.sync.read(readFileSync(changed.structured.diffFile))
    expect([diff.width, diff.height]).toEqual([800, 600])
    const masked = await mcp.call("electron_visual_compare", { name: "home", mask: ["testid=status", "testid=slow-task"] })
    expect(masked.structured.ratio, masked.text).toBe(0)
    const region = await mcp.call("electron_visual_compare", { name: "home", mask: [{ x: 0, y: 0, width: 800, height: 600 }] })
    expect(region.structured.ratio).toBe(0)
  })

  it("replacing a baseline says what it replaced", async () => {
    const replaced = await mcp.call("electron_visual_update_baseline", { name: "home" })
    expect(replaced.isError, replaced.text).toBe(false)
    expect(replaced.text).toMatch(/replaced the baseline of \d{4}-.* \(window 800x600 @1x/)
    expect((await mcp.call("electron_visual_compare", { name: "home" })).structured.ratio).toBe(0)
  })

  it("fails with the right codes: unknown baseline, a name leaving the folder, size mismatch", async () => {
    const missing = await mcp.call("electron_visual_compare", { name: "nope" })
    expect(missing.code).toBe("INVALID_ARGUMENT")
    expect(missing.text).toContain("have: home, slow-button")
    const escape = await mcp.call("electron_visual_update_baseline", { name: "../outside" })
    expect(escape.code).toBe("INVALID_ARGUMENT")
    expect(escape.text).toContain("name")
    const size = await mcp.call("electron_visual_compare", { name: "slow-button" })
    expect(size.code).toBe("OPERATION_FAILED")
    expect(size.text).toContain("differ in size")
    const threshold = await mcp.call("electron_visual_compare", { name: "home", threshold: 2 })
    expect(threshold.code).toBe("INVALID_ARGUMENT")
  })
})

describe("--visual-dir", () => {
  it("puts the baseline folder where the flag says", async () => {
    const dir = mkdtempSync(join(tmpdir(), "stagewright-baselines-"))
    const server = await stdioClient(["--plugin", "visual", "--visual-dir", dir])
    try {
      const list = await server.call("electron_visual_baselines")
      expect(list.isError, list.text).toBe(false)
      expect(list.structured.dir).toBe(dir)
      expect(list.text).toContain(`No baselines in ${dir}`)
    } finally {
      await server.close()
    }
  })
})
