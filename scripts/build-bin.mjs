// Bundles the `stagewright` bin with esbuild: the command line (src/cli.ts) and everything it reaches as
// one tree-shaken CommonJS file, dist/bin/stagewright.cjs, and the bin itself, dist/cli.js (src/cli/bin.ts),
// which runs that file compiled with V8's code cache (src/cli/compile-cache.ts): compiling the bundle was
// most of what a start cost above a bare MCP server. The library entry (dist/index.js) stays tsc-built
// for integrators; this runs after `tsc -p tsconfig.build.json`.
//
// Nothing is evaluated before it is needed although it is all in one file: esbuild turns each dynamic
// import of our code (the server, the HTTP transport, tools/doctor, production) into a module initialized
// at that import, with the requires of its dependencies (node:http for --port) inside. playwright-core
// stays external (the driver requires it at the first launch or attach; it is never bundled), and the
// build fails if it or the tokenizer (a benchmark-only devDependency) ends up in the bundle.
//
//   node scripts/build-bin.mjs [--metafile]   (writes dist/cli.meta.json with --metafile)
import { build } from "esbuild"
import { spawn } from "node:child_process"
import { chmodSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const dist = join(root, "dist")

// tsc emitted its own dist/cli.js (+ map, d.ts): the bin replaces them; old bundles go.
for (const stale of ["cli.js.map", "cli.d.ts", "cli.d.ts.map"]) rmSync(join(dist, stale), { force: true })
rmSync(join(dist, "bin"), { recursive: true, force: true })

// @effect/cli parses option values from YAML, TOML and INI files only for Options.fileParse /
// Args.fileParse / ConfigFile, which the stagewright command never defines: the bin gets a parser that
// says so instead of 330 KiB of parsers read and compiled at every start.
const noFileParsers = {
  name: "no-cli-file-parsers",
  setup(build) {
    build.onResolve({ filter: /^(yaml|toml|ini)$/ }, (args) =>
      args.importer.includes("@effect/cli") ? { path: args.path, namespace: "no-cli-file-parsers" } : undefined
    )
    build.onLoad({ filter: /.*/, namespace: "no-cli-file-parsers" }, (args) => ({
      contents: `export const parse = () => { throw new Error("stagewright: ${args.path} option files are not supported") }`,
      loader: "js"
    }))
  }
}

const result = await build({
  entryPoints: [join(root, "src", "cli.ts")],
  outfile: join(dist, "bin", "stagewright.cjs"),
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  treeShaking: true,
  minify: true,
  plugins: [noFileParsers],
  sourcemap: "linked",
  legalComments: "none",
  // Loaded at the first launch/attach only, never bundled; a third-party plugin is a runtime import.
  // Plugin dependencies stay packages of their own: @electron/asar reaches for Electron's original-fs, axe-core is read
  // from its file and injected into pages. pixelmatch is bundled: it is an ES module only, and this CommonJS bundle
  // would `require()` it, where Node hands back its namespace and `import pixelmatch from "pixelmatch"` gets no
  // function (esbuild's Node-mode interop makes the namespace the default). assertNoEsmOnlyExternals guards that.
  // re2js (the safe patterns' engine, ~150 KiB) and ws (attach's inspector, the main relay, ~50 KiB) are imported at
  // their first use only: kept out, the bundle every start compiles (and whose code cache it reads) is that much smaller.
  external: ["playwright-core", "playwright-core/*", "electron", "original-fs", "@electron/asar", "@electron/fuses", "axe-core", "pngjs", "re2js", "ws"],
  // Our modules find the package from their own URL: in the bundle, that of dist/bin/stagewright.cjs.
  define: { "import.meta.url": "__stagewrightModuleUrl" },
  banner: { js: `var __stagewrightModuleUrl = require("node:url").pathToFileURL(__filename).href;` },
  metafile: true,
  logLevel: "warning"
})
await build({
  entryPoints: [join(root, "src", "cli", "bin.ts")],
  outfile: join(dist, "cli.js"),
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  minify: true,
  legalComments: "none",
  logLevel: "warning"
})
assertNoEsmOnlyExternals(result.metafile)
const inputs = Object.values(result.metafile.outputs).flatMap((output) => Object.keys(output.inputs))
const forbidden = inputs.filter((input) => /node_modules\/(playwright-core|gpt-tokenizer)\//.test(input))
if (forbidden.length > 0) throw new Error(`the bin must not bundle ${forbidden.slice(0, 3).join(", ")}`)
chmodSync(join(dist, "cli.js"), 0o755)
await shipCompileCaches()
if (process.argv.includes("--metafile")) writeFileSync(join(root, "dist", "cli.meta.json"), JSON.stringify(result.metafile))
const bytes = Object.entries(result.metafile.outputs).reduce((sum, [file, output]) => sum + (file.endsWith(".cjs") ? output.bytes : 0), 0)
const caches = readdirSync(join(dist, "bin")).filter((file) => file.endsWith(".v8cache"))
process.stdout.write(`bundled dist/bin/stagewright.cjs (${(bytes / 1024).toFixed(0)} KiB) and its loader dist/cli.js; code caches: ${caches.join(", ")}\n`)

/**
 * Fails the build when the CommonJS bundle `require()`s an external package that is an ES module only: Node
 * (20.19+) returns its namespace object, so a default import through esbuild's interop is the namespace, not
 * the export (`(0, x.default) is not a function` at the first call). Such a package must be bundled.
 */
function assertNoEsmOnlyExternals(metafile) {
  const required = new Set()
  for (const output of Object.values(metafile.outputs)) {
    for (const entry of output.imports ?? []) {
      if (entry.external && entry.kind === "require-call" && /^(@[^/]+\/)?[^./][^/]*/.test(entry.path) && !entry.path.startsWith("node:"))
        required.add(entry.path)
    }
  }
  const esmOnly = [...required].filter((specifier) => {
    const name = /^(@[^/]+\/)?[^/]+/.exec(specifier)[0]
    let manifest
    try {
      manifest = JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8"))
    } catch {
      return false // not installed here (electron, original-fs): resolved by the app at run time
    }
    // CommonJS unless "type": "module", or an ES module package that offers a "require" condition.
    return manifest.type === "module" && !JSON.stringify(manifest.exports ?? null).includes('"require"')
  })
  if (esmOnly.length > 0) throw new Error(`the CommonJS bin requires ES-module-only packages ${esmOnly.join(", ")}: bundle them (drop them from external)`)
}

/**
 * Writes the code cache of each everyday command beside the bundle (dist/bin/<command>-<key>.v8cache,
 * src/cli/compile-cache.ts), so the first start after a build compiles nothing on this Node: the bin runs
 * once per command with the cache folder pointed there (serve answers initialize and tools/list first).
 * A Node that rejects them compiles and keeps its own cache instead.
 */
async function shipCompileCaches() {
  const bin = join(dist, "bin")
  const env = { ...process.env, STAGEWRIGHT_COMPILE_CACHE: bin }
  const run = (args, converse) =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [join(dist, "cli.js"), ...args], { env, stdio: ["pipe", "pipe", "ignore"] })
      const timer = setTimeout(() => child.kill("SIGKILL"), 30_000)
      child.once("error", reject)
      child.once("exit", (code) => {
        clearTimeout(timer)
        code === 0 ? resolve() : reject(new Error(`stagewright ${args.join(" ")} exited with ${code} while writing its code cache`))
      })
      if (converse) converse(child)
      else child.stdin.end()
      child.stdout.resume()
    })
  const send = (child, message) => child.stdin.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n")
  await run(["serve"], (child) => {
    let buffered = ""
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      buffered += chunk
      if (/"id":1[,}]/.test(buffered) && !buffered.includes('"id":2')) {
        send(child, { method: "notifications/initialized" })
        send(child, { id: 2, method: "tools/list" })
      }
      if (/"id":2[,}]/.test(buffered)) child.stdin.end()
    })
    send(child, {
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "stagewright-build", version: "0" } }
    })
  })
  await run(["tools", "--json"])
  await run(["--help"])
  for (const file of readdirSync(bin)) if (file.endsWith(".v8cache")) chmodSync(join(bin, file), 0o644)
}
