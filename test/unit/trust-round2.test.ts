/**
 * The trust boundary, round 2 (issue 33): switch values that name an app or a path are confined like
 * positional arguments; the app's Electron never comes from a folder above the app; a FIFO named as a
 * package.json cannot stall the server; procfs, sysfs and device files are refused as inputs; variables
 * the runtime reads as a program path need --allow-eval main. Each probe is also in `npm run bench:security`.
 */
import { describe, expect, it } from "@effect/vitest"
import { execFileSync } from "node:child_process"
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createServer, resolveElectronRuntime, type CreateServerOptions } from "../../src/index.js"

const withServer = async <A>(options: CreateServerOptions, f: (call: (name: string, args?: Record<string, unknown>) => Promise<any>) => Promise<A>) => {
  const server = await createServer({ toolProfile: "full", outputDir: mkdtempSync(join(tmpdir(), "sw-sec2-out-")), ...options })
  try {
    return await f((name, args = {}) => server.callTool(name, args))
  } finally {
    await server.close()
  }
}

const code = (result: any): string | undefined => result.structuredContent?.error?.code

const home = mkdtempSync(join(tmpdir(), "sw-sec2-"))
const root = join(home, "root")
const outside = join(home, "outside")
mkdirSync(join(root, "app"), { recursive: true })
mkdirSync(join(outside, "evil"), { recursive: true })
writeFileSync(join(root, "app", "package.json"), JSON.stringify({ name: "app", main: "main.js" }))
writeFileSync(join(root, "app", "main.js"), "")
writeFileSync(join(outside, "evil", "package.json"), JSON.stringify({ name: "evil", main: "main.js" }))
writeFileSync(join(outside, "evil", "main.js"), "")

describe("switch values are confined like positional arguments", () => {
  it("refuses --app=, path-taking Chromium switches and path-looking values outside --app-root", async () => {
    await withServer({ appRoot: root }, async (call) => {
      const refused = [
        [`--app=${join(outside, "evil")}`],
        ["--app", join(outside, "evil")],
        [`--APP=${join(root, "..", "outside", "evil")}`],
        [`--user-data-dir=${join(outside, "profile")}`],
        [`--disk-cache-dir=${join(outside, "cache")}`],
        [`--ssl-key-log-file=${join(outside, "keys.log")}`],
        [`--some-app-switch=${join(outside, "evil")}`],
        [`--some-app-switch=file://${join(outside, "evil", "main.js")}`]
      ]
      for (const args of refused) {
        const result = await call("electron_launch", { app: join(root, "app"), args })
        expect(code(result), args.join(" ")).toBe("PATH_NOT_ALLOWED")
        expect(result.content[0].text).toContain("--app-root")
      }
      // Inside the root, and values that are not paths, pass the switch check (the executable is what is refused here).
      for (const args of [[`--app=${join(root, "app")}`], ["--lang=en-US"], [`--user-data-dir=${join(root, "profile")}`]]) {
        const result = await call("electron_launch", { app: join(root, "app"), args, executablePath: "/bin/false" })
        expect(result.content[0].text, args.join(" ")).toContain("executablePath: /bin/false")
      }
    })
  })

  it("variables the runtime reads as a program path need --allow-eval main", async () => {
    await withServer({}, async (call) => {
      for (const name of ["STAGEWRIGHT_CHROMIUM", "stagewright_electron", "GTK_MODULES", "BROWSER"]) {
        expect(code(await call("electron_launch", { app: join(root, "app"), env: { [name]: "/bin/sh" } })), name).toBe("EVAL_NOT_AUTHORIZED")
      }
    })
  })
})

describe("the app's own Electron", () => {
  it("never comes from a node_modules/electron above the app's package.json", () => {
    const parent = mkdtempSync(join(tmpdir(), "sw-sec2-parent-"))
    const pkg = join(parent, "node_modules", "electron")
    mkdirSync(join(pkg, "dist"), { recursive: true })
    writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "electron", version: "66.6.6" }))
    writeFileSync(join(pkg, "path.txt"), "electron")
    writeFileSync(join(pkg, "dist", "electron"), "#!/bin/sh\n")
    chmodSync(join(pkg, "dist", "electron"), 0o755)
    const app = join(parent, "projects", "my-app")
    mkdirSync(app, { recursive: true })
    writeFileSync(join(app, "package.json"), JSON.stringify({ name: "my-app" }))
    const runtime = resolveElectronRuntime({ STAGEWRIGHT_ELECTRON: "/bin/true" }, app)
    expect(runtime.executablePath).toBe("/bin/true")
    expect(runtime.reason).toContain("STAGEWRIGHT_ELECTRON")
    // A bare main script with no package.json above it is looked up in its own folder only.
    const bare = join(parent, "scripts")
    mkdirSync(bare)
    expect(resolveElectronRuntime({ STAGEWRIGHT_ELECTRON: "/bin/true" }, join(bare, "main.js")).executablePath).toBe("/bin/true")
  })
})

describe("no input can stall the server", () => {
  it("a FIFO package.json is refused unread, and the server answers meanwhile", async () => {
    const folder = join(mkdtempSync(join(tmpdir(), "sw-sec2-fifo-")), "app")
    mkdirSync(folder)
    execFileSync("mkfifo", [join(folder, "package.json")])
    await withServer({}, async (call) => {
      const launch = call("electron_launch", { app: folder, executablePath: "/bin/false" })
      const status = await call("electron_status")
      expect(status.isError).toBeFalsy()
      const result = await launch
      expect(code(result)).toBe("INVALID_ARGUMENT")
      expect(result.content[0].text).toContain("not a regular file")
    })
    await withServer({ appRoot: root }, async (call) => {
      expect(code(await call("electron_launch", { app: folder }))).toBe("PATH_NOT_ALLOWED")
    })
  })
})

describe("procfs, sysfs and device files are refused as inputs", () => {
  it("uploads, drops, route files and HARs refuse them, symlinks resolved, with or without --app-root", async () => {
    const links = mkdtempSync(join(tmpdir(), "sw-sec2-links-"))
    symlinkSync("/proc/self/environ", join(links, "environ.txt"))
    const fifo = join(links, "pipe")
    execFileSync("mkfifo", [fifo])
    await withServer({ plugins: ["network"] }, async (call) => {
      const probes: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
        ["electron_upload_file", { target: "e1", paths: ["/proc/self/environ"] }],
        ["electron_upload_file", { target: "e1", paths: [join(links, "environ.txt")] }],
        ["electron_upload_file", { target: "e1", paths: ["/dev/zero"] }],
        ["electron_upload_file", { target: "e1", paths: [fifo] }],
        ["electron_upload_file", { target: "e1", paths: ["/sys/kernel/mm/transparent_hugepage/enabled"] }],
        ["electron_network_route", { url: "**/x", file: "/proc/self/environ" }],
        ["electron_network_har_replay", { file: join(links, "environ.txt") }],
        ["electron_dialog_stub", { action: "set", rules: [{ kind: "open", answer: { filePaths: ["/proc/self/environ"] } }] }]
      ]
      for (const [tool, args] of probes) {
        const result = await call(tool, args)
        expect(code(result), `${tool} ${JSON.stringify(args)}`).toBe("PATH_NOT_ALLOWED")
        expect(JSON.stringify(result)).not.toContain("PATH=")
      }
    })
  })
})

describe("lower findings", () => {
  it("wait_for_event takes 'constructor' as an event name, never a lookup into Object.prototype", async () => {
    await withServer({}, async (call) => {
      for (const event of ["constructor", "toString", "hasOwnProperty"]) {
        const result = await call("electron_wait_for_event", { on: "app", event, timeoutMs: 200 })
        expect(code(result), event).toBe("APP_NOT_RUNNING")
        expect(result.content[0].text).not.toContain("native code")
      }
    })
  })

  it("refuses session names with line breaks or control characters (they would forge lines in answers)", async () => {
    await withServer({}, async (call) => {
      for (const session of ["a\nlast_error: none", "a\rb", "a\u2028b", "a\u0007"]) {
        expect(code(await call("electron_launch", { app: join(root, "app"), session })), JSON.stringify(session)).toBe("INVALID_ARGUMENT")
      }
    })
  })
})

describe("doctor --app's version probe", () => {
  it("leaves no child of the app's binary running after the binary exits", async () => {
    const { probeVersions } = await import("../../src/cli/binary-versions.js")
    const { Effect } = await import("effect")
    const dir = mkdtempSync(join(tmpdir(), "sw-sec2-probe-"))
    const binary = join(dir, "electron")
    const pidFile = join(dir, "child.pid")
    writeFileSync(binary, `#!/bin/sh\nsleep 300 &\necho $! > ${JSON.stringify(pidFile)}\nexit 3\n`)
    chmodSync(binary, 0o755)
    const outcome = await Effect.runPromise(Effect.either(probeVersions(binary, { timeoutMs: 5_000 })))
    expect(outcome._tag).toBe("Left")
    const pid = Number(readFileSync(pidFile, "utf8").trim())
    const alive = () => {
      try {
        process.kill(pid, 0)
        return true
      } catch {
        return false
      }
    }
    await expect.poll(alive, { timeout: 3_000 }).toBe(false)
  })
})
