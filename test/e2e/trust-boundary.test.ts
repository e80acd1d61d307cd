/**
 * The trust boundary, probed as an attacker who controls the agent, over the built bin (stdio): no code
 * runs without --allow-eval (a marker file that must not appear, a page that must not change), --app-root
 * covers everything that would be executed, output folders cannot be left through a planted symlink, file
 * contents never come back in an error, and no launch takes the server down or leaves an app behind.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { vi } from "vitest"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { sampleAppPath } from "../../src/samples.js"
import { freshUserData, stdioClient, type TestClient } from "../support/mcp.js"
import { waitAllGone } from "../support/processes.js"

const scratch = mkdtempSync(join(tmpdir(), "sw-trust-"))
const marker = (name: string) => join(scratch, `marker-${name}`)
const tasks = () => ({ app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } })
/** A module that leaves a marker when anything loads it. */
const hook = join(scratch, "hook.cjs")
writeFileSync(hook, `require("fs").writeFileSync(${JSON.stringify(marker("hook"))}, "ran")\n`)

const launchTasks = async (mcp: TestClient) => {
  const launched = await mcp.call("electron_launch", tasks())
  expect(launched.isError, launched.text).toBe(false)
  expect((await mcp.call("electron_wait_for", { target: "testid=ping-button" })).isError).toBe(false)
  return launched.structured.pid as number
}

const activeUrl = async (mcp: TestClient) =>
  ((await mcp.call("electron_windows")).structured.windows as Array<{ active: boolean; url: string }>).find((w) => w.active)?.url

describe("without --allow-eval (network plugin loaded)", () => {
  let mcp: TestClient
  const out = mkdtempSync(join(tmpdir(), "sw-trust-out-"))
  const outside = mkdtempSync(join(tmpdir(), "sw-trust-outside-"))
  beforeAll(async () => {
    mcp = await stdioClient(["--output-dir", out, "--plugin", "network"])
  })
  afterAll(async () => {
    await mcp?.close()
  })

  it("navigate refuses caller-written documents and browser-internal pages; the page stays the app's", async () => {
    await launchTasks(mcp)
    const before = await activeUrl(mcp)
    for (const url of [
      "data:text/html,<script>document.title='pwned'</script>",
      " DATA:text/html;base64,PHNjcmlwdD5kb2N1bWVudC50aXRsZT0ncHduZWQnPC9zY3JpcHQ+",
      "blob:file:///x"
    ]) {
      const result = await mcp.call("electron_navigate", { url })
      expect(result.code, url).toBe("EVAL_NOT_AUTHORIZED")
      expect(result.text).toContain("--allow-eval renderer")
    }
    for (const url of ["devtools://devtools/bundled/inspector.html?ws=127.0.0.1:9229/x", "chrome://version", "view-source:file:///etc/passwd"]) {
      const result = await mcp.call("electron_navigate", { url })
      expect(result.code, url).toBe("EVAL_NOT_AUTHORIZED")
      expect(result.text).toContain("--allow-eval main")
    }
    for (const url of ["about:config", "ms-settings:display", "relative.html"]) {
      expect((await mcp.call("electron_navigate", { url })).code, url).toBe("INVALID_ARGUMENT")
    }
    expect(await activeUrl(mcp)).toBe(before)
    expect((await mcp.call("electron_windows")).text).not.toContain("pwned")
  })

  it("a file: URL into the server's own output folder is never opened as a page", async () => {
    writeFileSync(join(out, "planted.html"), "<script>document.title='pwned'</script>")
    const result = await mcp.call("electron_navigate", { url: pathToFileURL(join(out, "planted.html")).href })
    expect(result.code).toBe("PATH_NOT_ALLOWED")
  })

  it("a mocked body served to a document is refused without the flag; JSON for fetch still works", async () => {
    const routed = await mcp.call("electron_network_route", {
      url: "http://stagewright.invalid/**",
      body: "<script>document.title='pwned'</script>",
      headers: { "content-type": "text/html" }
    })
    expect(routed.isError, routed.text).toBe(false)
    const opened = await mcp.call("electron_navigate", { url: "http://stagewright.invalid/page" })
    expect(opened.isError).toBe(true)
    const listed = await mcp.call("electron_network_route")
    expect(listed.text).toContain("refused")
    expect(listed.structured.routes[0].blocked).toBeGreaterThan(0)
    expect((await mcp.call("electron_windows")).text).not.toContain("pwned")
    await mcp.call("electron_network_unroute")
  })

  it("launch switches and environment variables that run code need --allow-eval main; nothing ran", async () => {
    const prefix = `/bin/sh -c 'touch ${marker("prefix")}; exec "$0" "$@"'`
    const probes: ReadonlyArray<Record<string, unknown>> = [
      { ...tasks(), args: [`--renderer-cmd-prefix=${prefix}`] },
      { ...tasks(), args: [`-renderer-cmd-prefix=${prefix}`] },
      { ...tasks(), args: ["--gpu-launcher=/bin/true"] },
      { ...tasks(), args: ["--INSPECT=127.0.0.1:0"] },
      { ...tasks(), args: ["--remote-debugging-port=0"] },
      { ...tasks(), args: ["-r", hook] },
      { ...tasks(), args: [`--require=${hook}`] },
      { app: sampleAppPath("tasks"), env: { NODE_OPTIONS: `--require=${hook}` } },
      { app: sampleAppPath("tasks"), env: { node_options: `--require=${hook}` } }
    ]
    for (const probe of probes) {
      const result = await mcp.call("electron_launch", probe)
      expect(result.code, JSON.stringify(probe)).toBe("EVAL_NOT_AUTHORIZED")
      expect(result.text).toContain("--allow-eval main")
    }
    const key = await mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { [`NODE_OPTIONS=--require=${hook}`]: "" } })
    expect(key.code).toBe("INVALID_ARGUMENT")
    expect(existsSync(marker("prefix"))).toBe(false)
    expect(existsSync(marker("hook"))).toBe(false)
  })

  it("a symlink planted in the output folder does not lead a write out of it", async () => {
    symlinkSync(join(outside, "escaped.png"), join(out, "link.png"))
    symlinkSync(outside, join(out, "dir-link"))
    await launchTasks(mcp)
    for (const name of ["link.png", "link", "dir-link/shot.png", "../shot.png", "a\nb.png"]) {
      expect((await mcp.call("electron_screenshot", { name })).code, name).toBe("PATH_NOT_ALLOWED")
    }
    expect(readdirSync(outside)).toEqual([])
  })

  it("a file that is not a HAR is refused by name, without its content", async () => {
    const secret = join(outside, "secret.txt")
    writeFileSync(secret, "root:TOP-SECRET-LINE:0:0\n")
    const result = await mcp.call("electron_network_har_replay", { file: secret })
    expect(result.code).toBe("INVALID_ARGUMENT")
    expect(JSON.stringify(result.raw)).not.toContain("TOP-SECRET")
  })

  it("an app that cannot start answers LAUNCH_FAILED and the server keeps serving; then a launch works", async () => {
    const broken = join(scratch, "broken-app")
    mkdirSync(broken)
    writeFileSync(join(broken, "package.json"), JSON.stringify({ name: "broken", main: "missing.js" }))
    for (const probe of [{ executablePath: "/bin/false" }, { app: broken }, { app: broken, executablePath: "/bin/true" }]) {
      const result = await mcp.call("electron_launch", probe)
      expect(result.code, JSON.stringify(probe)).toBe("LAUNCH_FAILED")
      expect((await mcp.call("electron_status")).isError).toBe(false)
    }
    await launchTasks(mcp)
  })

  it("two launches at once: one replaces the other, and after close neither app is left", async () => {
    const [a, b] = await Promise.all([mcp.call("electron_launch", tasks()), mcp.call("electron_launch", tasks())])
    expect(a.isError, a.text).toBe(false)
    expect(b.isError, b.text).toBe(false)
    const pids = [a.structured.pid as number, b.structured.pid as number]
    expect(new Set(pids).size).toBe(2)
    expect((await mcp.call("electron_close")).isError).toBe(false)
    expect(await waitAllGone(pids)).toEqual([])
  })
})

describe("with --allow-eval renderer only, and with main but no app", () => {
  it("an eval source never runs in the server's own process", async () => {
    const write = (name: string) => `() => 0, process.getBuiltinModule("fs").writeFileSync(${JSON.stringify(marker(name))}, "server")`
    const renderer = await stdioClient(["--allow-eval", "renderer"])
    try {
      await launchTasks(renderer)
      const result = await renderer.call("electron_eval_renderer", { function: write("renderer") })
      expect(result.isError).toBe(true)
      expect((await renderer.call("electron_eval_renderer", { function: "() => 6 * 7" })).text).toBe("42")
    } finally {
      await renderer.close()
    }
    const main = await stdioClient(["--allow-eval", "main"])
    try {
      expect((await main.call("electron_eval_main", { function: write("main") })).code).toBe("APP_NOT_RUNNING")
    } finally {
      await main.close()
    }
    expect(existsSync(marker("renderer"))).toBe(false)
    expect(existsSync(marker("main"))).toBe(false)
  })
})

describe("with --app-root", () => {
  const root = mkdtempSync(join(tmpdir(), "sw-trust-root-"))
  const outside = mkdtempSync(join(tmpdir(), "sw-trust-far-"))
  writeFileSync(join(outside, "main.js"), `require("fs").writeFileSync(${JSON.stringify(marker("outside-main"))}, "ran")\n`)
  mkdirSync(join(root, "app"))
  writeFileSync(join(root, "app", "package.json"), JSON.stringify({ name: "escape", main: join(outside, "main.js") }))
  mkdirSync(join(root, "plain"))
  writeFileSync(join(root, "plain", "package.json"), JSON.stringify({ name: "plain", main: "main.js" }))
  writeFileSync(join(root, "plain", "main.js"), "")

  it("confines what would be executed: the app from args, -r modules, a relative executablePath, package.json main, file: URLs", async () => {
    const mcp = await stdioClient(["--app-root", root, "--allow-eval", "main"])
    try {
      const probes: ReadonlyArray<Record<string, unknown>> = [
        { args: [join(outside, "main.js")] },
        { args: ["-r", join(outside, "main.js"), join(root, "plain")] },
        { app: join(root, "plain"), cwd: root, executablePath: "../../../bin/sh" },
        { app: join(root, "app") }
      ]
      for (const probe of probes) {
        const result = await mcp.call("electron_launch", probe)
        expect(result.code, JSON.stringify(probe)).toBe("PATH_NOT_ALLOWED")
      }
      expect((await mcp.call("electron_navigate", { url: pathToFileURL(join(outside, "main.js")).href })).code).toBe("PATH_NOT_ALLOWED")
      expect(existsSync(marker("outside-main"))).toBe(false)
    } finally {
      await mcp.close()
    }
  })
})

describe("temp folders", () => {
  it("nothing is left in the temp folder after a failed launch, a timed-out launch, a killed app and a close", async () => {
    const temp = mkdtempSync(join(tmpdir(), "sw-trust-tmp-"))
    const mcp = await stdioClient([], { TMPDIR: temp })
    try {
      expect((await mcp.call("electron_launch", { executablePath: "/bin/false" })).code).toBe("LAUNCH_FAILED")
      expect((await mcp.call("electron_launch", { ...tasks(), timeoutMs: 1 })).isError).toBe(true)
      const pid = await launchTasks(mcp)
      process.kill(-pid, "SIGKILL")
      expect(await waitAllGone([pid])).toEqual([])
      await launchTasks(mcp)
      expect((await mcp.call("electron_close")).isError).toBe(false)
    } finally {
      await mcp.close()
    }
    await vi.waitFor(() => expect(readdirSync(temp)).toEqual([]), { timeout: 15_000, interval: 100 })
  })
})
