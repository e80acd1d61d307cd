/**
 * A packaged build whose EnableNodeCliInspectArguments fuse is off (test/plugins/production-fixture.ts:
 * the stand-in behind a launcher carrying @electron/fuses' wire, which drops --inspect like Electron does)
 * launched with electron_launch: Stagewright reads the fuse, starts the build with Chromium's remote
 * debugging port and drives its windows over CDP; main-process tools answer NEEDS_MAIN_PROCESS with the
 * reason, and closing leaves none of its processes. The launch policy (--app-root, eval-gated switches)
 * applies as to any launch.
 */
import { FuseV1Options } from "@electron/fuses"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { rmSync } from "node:fs"
import { callUntil, inMemoryClient, stdioClient, type TestClient } from "../support/mcp.js"
import { descendants, isAlive, waitAllGone } from "../support/processes.js"
import { linuxBuild, RELEASE_FUSES, tempProject } from "../plugins/production-fixture.js"

const project = tempProject("cdp-launch")
let executable: string
let mcp: TestClient

beforeAll(async () => {
  executable = (await linuxBuild(project, "hardened", { ...RELEASE_FUSES, [FuseV1Options.EnableNodeCliInspectArguments]: false })).executable
  mcp = await inMemoryClient({ appRoot: project })
}, 120_000)

afterAll(async () => {
  await mcp?.close()
  rmSync(project, { recursive: true, force: true })
})

/** This test process's descendants that are not in `before` and still alive. */
const newProcesses = (before: ReadonlySet<number>) => descendants(process.pid).filter((pid) => !before.has(pid) && isAlive(pid))

describe("a packaged build with the inspect fuse off", () => {
  it("electron_launch drives it over CDP: windows work, main-process tools say why they cannot, close leaves nothing running", async () => {
    const launched = await mcp.call("electron_launch", { executablePath: executable })
    expect(launched.isError, launched.text).toBe(false)
    expect(launched.text).toMatch(/^Launched over CDP: the EnableNodeCliInspectArguments fuse is off; main-process tools are unavailable/m)
    expect(launched.structured).toMatchObject({ overCdp: true, mainProcess: false })
    const pid = launched.structured.pid as number
    expect(isAlive(pid)).toBe(true)

    const snapshot = await mcp.call("electron_snapshot")
    expect(snapshot.isError, snapshot.text).toBe(false)
    expect(snapshot.text).toMatch(/heading "Hardened Demo"/)
    expect(snapshot.text).toMatch(/status.*Ready/)

    // The button asks the app's own main process (over its IPC) to switch the theme: the page shows the answer.
    const clicked = await mcp.call("electron_click", { target: "testid=toggle-theme-button" })
    expect(clicked.isError, clicked.text).toBe(false)
    const notice = await Effect.runPromise(callUntil(mcp, "electron_get_text", { target: "testid=notice" }, (r) => r.text !== "Ready"))
    expect(notice.text).toMatch(/^Theme set to (dark|light)$/)
    expect((await mcp.call("electron_fill", { target: "testid=ping-input", value: "over cdp" })).isError).toBe(false)
    expect((await mcp.call("electron_expect_value", { target: "testid=ping-input", value: "over cdp" })).isError).toBe(false)

    for (const [tool, args] of [
      ["electron_app_info", {}],
      ["electron_menu", {}],
      ["electron_window_state", { action: "focus" }]
    ] as const) {
      const result = await mcp.call(tool, args)
      expect(result.code, `${tool}: ${result.text}`).toBe("NEEDS_MAIN_PROCESS")
      expect(result.text).toContain("inspect fuse off: launched over CDP")
      expect(result.structured.error.reason).toBe("inspect fuse off: launched over CDP")
    }
    const exported = await mcp.call("electron_export_test")
    expect(exported.code, exported.text).toBe("INVALID_ARGUMENT")
    expect(exported.text).toMatch(/launched over CDP.*_electron\.launch.*cannot start it/)
    const status = await mcp.call("electron_status")
    expect(status.structured.app).toMatchObject({ state: "running", kind: "launched", pid, mainProcess: false })

    const processes = [pid, ...descendants(pid)]
    expect(processes.length).toBeGreaterThan(1)
    const closed = await mcp.call("electron_close")
    expect(closed.isError, closed.text).toBe(false)
    expect(await waitAllGone(processes)).toEqual([])
    expect((await mcp.call("electron_snapshot")).code).toBe("APP_NOT_RUNNING")
  })

  it("a launch that fails (a bound too short for the DevTools line) kills what it started", async () => {
    const before = new Set(descendants(process.pid))
    const failed = await mcp.call("electron_launch", { executablePath: executable, timeoutMs: 1 })
    expect(failed.code, failed.text).toBe("LAUNCH_FAILED")
    expect(await waitAllGone(newProcesses(before))).toEqual([])
  })

  it("leaves none of its processes behind when the server over stdio is SIGKILLed", async () => {
    // The stand-in's own watch of its launcher (stdin, parent pid) is off, as a real Electron has none.
    const server = await stdioClient(["--app-root", project], { STAGEWRIGHT_STANDIN_WATCH_PARENT: "0" })
    const launched = await server.call("electron_launch", { executablePath: executable })
    expect(launched.isError, launched.text).toBe(false)
    expect(launched.structured).toMatchObject({ overCdp: true })
    const tree = descendants(server.pid!)
    expect(tree).toContain(launched.structured.pid as number)
    process.kill(server.pid!, "SIGKILL")
    expect(await waitAllGone(tree)).toEqual([])
    await server.close().catch(() => undefined)
  })

  it("goes through the launch policy: --app-root confines the executable, code-running switches need --allow-eval main", async () => {
    const outside = await mcp.call("electron_launch", { executablePath: process.execPath })
    expect(outside.code, outside.text).toBe("PATH_NOT_ALLOWED")
    const inspect = await mcp.call("electron_launch", { executablePath: executable, args: ["--remote-debugging-port=9222"] })
    expect(inspect.code, inspect.text).toBe("EVAL_NOT_AUTHORIZED")
  })
})
