/**
 * Stagewright as a user gets it: `npm pack` of the built project, installed with `npm install <tarball>`
 * into a fresh project, and its INSTALLED bin (node_modules/.bin/stagewright) run: --help, doctor --json,
 * tools/list over stdio through the MCP SDK client, and a launch of the repository's `tasks` sample app on
 * an Electron given by path (the repository's stand-in launcher: the package ships no stand-in, and
 * `STAGEWRIGHT_ELECTRON=standin` says so). The package lists no test/ file.
 *
 * The install reads dependencies from npm's cache first (--prefer-offline): the project's own install
 * filled it. Everything is created in one temp folder, removed at the end, with the servers it started.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { packageRoot, standinExecutable } from "../../src/layers/driver/electron-runtime.js"
import { sampleAppPath } from "../../src/samples.js"
import { CLI, runNode, type Finished } from "../support/cli.js"
import { freshUserData } from "../support/mcp.js"

const root = packageRoot()
const work = mkdtempSync(join(tmpdir(), "stagewright-package-"))
const project = join(work, "project")
const installedBin = join(project, "node_modules", ".bin", "stagewright")
const installedPackage = join(project, "node_modules", "stagewright")

/** npm's own script, run with this Node (no shell): next to the node binary on POSIX and on Windows. */
const npmCli = (): string => {
  const nodeDir = dirname(process.execPath)
  const candidates = [join(nodeDir, "..", "lib", "node_modules", "npm", "bin", "npm-cli.js"), join(nodeDir, "node_modules", "npm", "bin", "npm-cli.js")]
  const found = candidates.find((candidate) => existsSync(candidate))
  if (found === undefined) throw new Error(`npm-cli.js not found beside ${process.execPath} (looked at ${candidates.join(", ")})`)
  return found
}

/**
 * The environment for npm and the installed bin: the test run's, without the npm_* variables an npm script
 * hands its children (npm_config_local_prefix would point npm at this repository) and without the run's
 * Electron choice (each test says its own), with the bin's code cache kept in the temp folder rather than
 * the user's ~/.cache.
 */
const cleanEnv = (): NodeJS.ProcessEnv => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name) && name !== "STAGEWRIGHT_ELECTRON")),
  STAGEWRIGHT_COMPILE_CACHE: join(work, "compile-cache")
})

const npm = (args: ReadonlyArray<string>, cwd: string): Promise<Finished> => runNode([npmCli(), ...args], { cwd, env: cleanEnv(), timeoutMs: 280_000 })

const expectDone = (run: Finished, what: string) => {
  if (run.status !== 0) throw new Error(`${what} exited with ${run.status}:\n${run.stderr.slice(-4000)}`)
}

/** Runs the installed bin, node_modules/.bin/stagewright (the link npm made), with this Node. */
const runInstalled = (args: ReadonlyArray<string>, env: NodeJS.ProcessEnv = {}): Promise<Finished> =>
  runNode([installedBin, ...args], { cwd: project, env: { ...cleanEnv(), ...env }, timeoutMs: 60_000 })

interface PackListing {
  readonly entryCount: number
  readonly unpackedSize: number
  readonly files: ReadonlyArray<{ readonly path: string }>
}

/**
 * An SDK client over stdio to the installed bin itself (node_modules/.bin/stagewright, started through its
 * `#!/usr/bin/env node` line with this Node's folder first on PATH), closed by the caller.
 */
const installedClient = async (env: Record<string, string>) => {
  const transport = new StdioClientTransport({
    command: installedBin,
    args: ["serve"],
    cwd: project,
    stderr: "pipe",
    env: {
      ...getDefaultEnvironment(),
      PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ""}`,
      STAGEWRIGHT_COMPILE_CACHE: join(work, "compile-cache"),
      ...(process.env.TMPDIR !== undefined ? { TMPDIR: process.env.TMPDIR } : {}),
      ...env
    }
  })
  const client = new Client({ name: "stagewright-package-test", version: "1.0.0" })
  await client.connect(transport)
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const raw = (await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as {
      content?: ReadonlyArray<{ type: string; text?: string }>
      isError?: boolean
    }
    return {
      text: (raw.content ?? [])
        .filter((c) => c.type === "text")
        .map((c) => c.text)
        .join("\n"),
      isError: raw.isError === true
    }
  }
  return { client, call }
}

beforeAll(async () => {
  if (!existsSync(join(root, "dist", "bin", "stagewright.cjs"))) throw new Error(`${CLI} is not built: run npm run build first (npm test does)`)
  const packs = join(work, "packs")
  mkdirSync(packs)
  expectDone(await npm(["pack", "--pack-destination", packs, "--silent"], root), "npm pack")
  const tarball = readdirSync(packs).find((file) => file.endsWith(".tgz"))
  if (tarball === undefined) throw new Error(`npm pack wrote no tarball in ${packs}`)
  mkdirSync(project)
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "stagewright-install-check", version: "0.0.0", private: true }, null, 2))
  expectDone(await npm(["install", join(packs, tarball), "--prefer-offline", "--no-audit", "--no-fund", "--loglevel", "error"], project), "npm install")
}, 300_000)

afterAll(() => {
  rmSync(work, { recursive: true, force: true })
})

describe("the packed package", () => {
  it("lists the runtime only: no test/ or src/ file, no demo, sample or source map, and stays small", async () => {
    const run = await npm(["pack", "--dry-run", "--json", "--silent"], root)
    expectDone(run, "npm pack --dry-run")
    const [listing] = JSON.parse(run.stdout) as ReadonlyArray<PackListing>
    const paths = listing!.files.map((file) => file.path)
    expect(paths.filter((path) => /^(test|src|bench|scripts|examples|dist\/bench)\//.test(path))).toEqual([])
    expect(paths.filter((path) => /^dist\/(demo|samples)\.|\.map$|\.v8cache$/.test(path))).toEqual([])
    for (const needed of [
      "package.json",
      "README.md",
      "LICENSE",
      "dist/cli.js",
      "dist/bin/stagewright.cjs",
      "dist/index.js",
      "dist/index.d.ts",
      "docs/TOOLS.md"
    ]) {
      expect(paths).toContain(needed)
    }
    expect(listing!.unpackedSize).toBeLessThan(5 * 1024 * 1024)
  }, 120_000)

  it("installs a bin whose --help lists the commands and the flags server.json names", async () => {
    const run = await runInstalled(["--help"])
    expect(run.status, run.stderr).toBe(0)
    const server = JSON.parse(readFileSync(join(root, "server.json"), "utf8")) as {
      packages: ReadonlyArray<{ packageArguments?: ReadonlyArray<{ name?: string }> }>
    }
    for (const flag of (server.packages[0]!.packageArguments ?? []).map((argument) => argument.name!)) expect(run.stdout).toContain(flag)
    expect(run.stdout).toContain("doctor")
    expect(existsSync(join(installedPackage, "test"))).toBe(false)
  })

  it("answers doctor --json with its checks, and says the stand-in is not in this installation", async () => {
    const plain = await runInstalled(["doctor", "--json"])
    const report = JSON.parse(plain.stdout) as { ok: boolean; checks: ReadonlyArray<{ name: string; ok: boolean; required: boolean; detail: string }> }
    expect(typeof report.ok).toBe("boolean")
    expect(report.checks.map((check) => check.name)).toEqual(expect.arrayContaining(["node", "playwright-core", "electron", "output dir", "policy"]))
    for (const check of report.checks)
      expect(check).toEqual({ name: expect.any(String), ok: expect.any(Boolean), required: expect.any(Boolean), detail: expect.any(String) })
    expect(report.checks.find((check) => check.name === "playwright-core")).toMatchObject({ ok: true })

    const standin = await runInstalled(["doctor", "--json"], { STAGEWRIGHT_ELECTRON: "standin" })
    const electron = (JSON.parse(standin.stdout) as typeof report).checks.find((check) => check.name === "electron")
    expect(electron).toMatchObject({ ok: false, required: true })
    expect(electron!.detail).toContain("the stand-in is a test runtime in the Stagewright repository; not in this installation")
    expect(standin.status).toBe(1)
  })

  it("refuses a launch on STAGEWRIGHT_ELECTRON=standin with that reason, and keeps serving", async () => {
    const { client, call } = await installedClient({ STAGEWRIGHT_ELECTRON: "standin" })
    try {
      const launch = await call("electron_launch", { app: sampleAppPath("tasks") })
      expect(launch.isError).toBe(true)
      expect(launch.text).toContain("LAUNCH_FAILED")
      expect(launch.text).toContain("not in this installation")
      expect((await call("electron_status")).isError).toBe(false)
    } finally {
      await client.close()
    }
  })

  it("serves tools/list over stdio and drives the tasks app on an Electron given by path", async () => {
    const { client, call } = await installedClient({ STAGEWRIGHT_ELECTRON: standinExecutable() })
    try {
      const { tools } = await client.listTools()
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["electron_launch", "electron_snapshot", "electron_close"]))
      const launch = await call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } })
      expect(launch.text).toMatch(/^Launched Tasks 1\.4\.0 /)
      // A binary given by path is an Electron as far as the server knows: its version is what it reports.
      expect(launch.text).toMatch(/ \(Electron \S+, from STAGEWRIGHT_ELECTRON, pid \d+/)
      expect(launch.isError).toBe(false)
      const snapshot = await call("electron_snapshot")
      expect(snapshot.isError, snapshot.text).toBe(false)
      expect(snapshot.text).toContain("Task Board")
      const close = await call("electron_close")
      expect(close.isError, close.text).toBe(false)
    } finally {
      await client.close()
    }
  }, 120_000)
})
