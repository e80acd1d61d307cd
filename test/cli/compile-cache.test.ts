/**
 * The bin's code cache (src/cli/compile-cache.ts): where it lives, that a run writes it and the next
 * one uses it (with the same output, import() of a third-party plugin included), that the cache the build
 * ships serves a first start, that a damaged cache is replaced and never breaks a start, and that it can
 * be turned off.
 */
import { describe, expect, it } from "@effect/vitest"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { cacheFolder, cacheKind, cacheName, pruneStale, STALE_CACHE_MS } from "../../src/cli/compile-cache.js"
import { packageRoot } from "../../src/layers/driver/electron-runtime.js"
import { CLI, runNode } from "../support/cli.js"

const HELLO = join(packageRoot(), "examples", "plugin-hello", "index.js")

describe("where the code cache lives", () => {
  it("STAGEWRIGHT_COMPILE_CACHE names the folder or turns it off; else XDG_CACHE_HOME, else ~/.cache", () => {
    expect(cacheFolder({ STAGEWRIGHT_COMPILE_CACHE: "off", HOME: "/home/a" })).toBeUndefined()
    expect(cacheFolder({ STAGEWRIGHT_COMPILE_CACHE: "0" })).toBeUndefined()
    expect(cacheFolder({ STAGEWRIGHT_COMPILE_CACHE: "/var/cache/sw", HOME: "/home/a" })).toBe("/var/cache/sw")
    expect(cacheFolder({ XDG_CACHE_HOME: "/home/a/.xdg", HOME: "/home/a" })).toBe("/home/a/.xdg/stagewright")
    expect(cacheFolder({ HOME: "/home/a" })).toBe("/home/a/.cache/stagewright")
  })

  it("two installs of the same bundle keep different caches (a cache holds its script's path, which stack traces print)", () => {
    const args = ["serve"]
    expect(cacheName("/a/node_modules/stagewright/dist/bin/stagewright.cjs", "same text", args)).not.toBe(
      cacheName("/b/node_modules/stagewright/dist/bin/stagewright.cjs", "same text", args)
    )
    expect(cacheName("/a/x.cjs", "same text", args)).toBe(cacheName("/a/x.cjs", "same text", args))
  })

  it("each command keeps its own cache (each compiles different parts of the bundle)", () => {
    expect(cacheKind([])).toBe("serve")
    expect(cacheKind(["--tool-profile", "essential"])).toBe("serve")
    expect(cacheKind(["serve", "--port", "0"])).toBe("serve")
    expect(cacheKind(["tools", "--json"])).toBe("tools")
    expect(cacheKind(["doctor"])).toBe("doctor")
    expect(cacheKind(["production", "validate", "x"])).toBe("production")
    expect(cacheKind(["--help"])).toBe("help")
    expect(cacheKind(["--version"])).toBe("help")
  })
})

describe("old caches do not pile up", () => {
  it("writing a cache removes the same command's caches of other bundles unused for a week, and stray temporary files", () => {
    const folder = mkdtempSync(join(tmpdir(), "stagewright-cc-prune-"))
    const now = Date.now()
    const make = (name: string, ageMs: number) => {
      writeFileSync(join(folder, name), "x")
      const at = (now - ageMs) / 1000
      utimesSync(join(folder, name), at, at)
    }
    make("serve-new.v8cache", 0)
    make("serve-old.v8cache", STALE_CACHE_MS + 60_000)
    make("serve-recent.v8cache", STALE_CACHE_MS - 60_000)
    make("tools-old.v8cache", STALE_CACHE_MS + 60_000)
    make("serve-new.v8cache.123.tmp", 2 * 3_600_000)
    make("serve-new.v8cache.456.tmp", 60_000)
    make("notes.txt", STALE_CACHE_MS * 2)
    mkdirSync(join(folder, "sub"))
    pruneStale(folder, "serve-new.v8cache", now)
    expect(readdirSync(folder).sort()).toEqual([
      "notes.txt",
      "serve-new.v8cache",
      "serve-new.v8cache.456.tmp",
      "serve-recent.v8cache",
      "sub",
      "tools-old.v8cache"
    ])
  })
})

describe("the bin with its code cache", { timeout: 120_000 }, () => {
  const run = (folder: string) => runNode([CLI, "tools", "--json", "--plugin", HELLO], { env: { ...process.env, STAGEWRIGHT_COMPILE_CACHE: folder } })
  const names = (stdout: string) => (JSON.parse(stdout) as { tools: Array<{ name: string }> }).tools.map((t) => t.name)

  it("the first run writes the cache; the next run uses it and answers the same, a third-party plugin included", async () => {
    const folder = join(mkdtempSync(join(tmpdir(), "stagewright-cc-test-")), "cache")
    const first = await run(folder)
    expect(first.status, first.stderr).toBe(0)
    const files = readdirSync(folder)
    expect(
      files.filter((f) => /^tools-[0-9a-f]+\.v8cache$/.test(f)),
      files.join(", ")
    ).toHaveLength(1)
    const cache = join(folder, files.find((f) => f.endsWith(".v8cache"))!)
    expect(statSync(folder).mode & 0o777).toBe(0o700)
    const written = statSync(cache).mtimeMs
    const second = await run(folder)
    expect(second.status, second.stderr).toBe(0)
    expect(names(second.stdout)).toEqual(names(first.stdout))
    expect(names(second.stdout)).toContain("electron_hello_greet")
    // Accepted, so not written again.
    expect(statSync(cache).mtimeMs).toBe(written)
  })

  it("a damaged cache never breaks a start and is replaced", async () => {
    const folder = join(mkdtempSync(join(tmpdir(), "stagewright-cc-test-")), "cache")
    expect((await run(folder)).status).toBe(0)
    const cache = join(folder, readdirSync(folder).find((f) => f.endsWith(".v8cache"))!)
    writeFileSync(cache, "not a code cache")
    const damaged = await run(folder)
    expect(damaged.status, damaged.stderr).toBe(0)
    expect(names(damaged.stdout)).toContain("electron_hello_greet")
    expect(readFileSync(cache).length).toBeGreaterThan(1_000)
  })

  it("without a folder named, the cache the build wrote beside the bundle serves a first start: nothing is compiled or written", async () => {
    const shipped = readdirSync(join(packageRoot(), "dist", "bin")).filter((f) => /^(serve|tools|help)-[0-9a-f]+\.v8cache$/.test(f))
    expect(shipped.map((f) => f.split("-")[0]).sort()).toEqual(["help", "serve", "tools"])
    const home = mkdtempSync(join(tmpdir(), "stagewright-cc-home-"))
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CACHE_HOME: join(home, "xdg") }
    delete env["STAGEWRIGHT_COMPILE_CACHE"]
    const listed = await runNode([CLI, "tools", "--json"], { env })
    expect(listed.status, listed.stderr).toBe(0)
    expect(names(listed.stdout).length).toBeGreaterThan(10)
    // The user's folder is made, but the shipped cache was accepted: no cache of its own.
    expect(readdirSync(join(home, "xdg", "stagewright"))).toEqual([])
  })

  it("STAGEWRIGHT_COMPILE_CACHE=off writes nothing", async () => {
    const home = mkdtempSync(join(tmpdir(), "stagewright-cc-home-"))
    const off = await runNode([CLI, "tools", "--json"], {
      env: { ...process.env, STAGEWRIGHT_COMPILE_CACHE: "off", HOME: home, XDG_CACHE_HOME: join(home, "xdg") }
    })
    expect(off.status, off.stderr).toBe(0)
    expect(names(off.stdout).length).toBeGreaterThan(10)
    expect(existsSync(join(home, "xdg", "stagewright"))).toBe(false)
    expect(existsSync(join(home, ".cache", "stagewright"))).toBe(false)
  })
})
