// Bundles the `stagewright` bin (src/cli.ts) with esbuild: one tree-shaken ESM entry, dist/cli.js,
// holding the command line, and beside it in dist/bin/ the parts the CLI imports dynamically (the
// server, the HTTP transport, tools/doctor) and the code they share, each loaded only when a command
// reaches it. The library entry (dist/index.js) stays tsc-built for integrators; this runs after
// `tsc -p tsconfig.build.json`.
//
// Why chunks beside the entry rather than one file: in a single ESM file esbuild hoists every import
// it does not bundle to the top (node:http, node:http2, node:tls of the HTTP transport; playwright-core
// while the driver imports it statically), so each start would load them. playwright-core stays
// external (the driver loads it at the first launch or attach; it is never bundled), and the build
// fails if it or the tokenizer (a benchmark-only devDependency) ends up in the bundle.
//
//   node scripts/build-bin.mjs [--metafile]   (writes dist/cli.meta.json with --metafile)
import { build } from "esbuild"
import { rmSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const dist = join(root, "dist")

// tsc emitted its own dist/cli.js (+ map, d.ts): the bundle replaces them; old chunks go.
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
  outdir: dist,
  entryNames: "[name]",
  chunkNames: "bin/[name]-[hash]",
  splitting: true,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  treeShaking: true,
  minify: true,
  plugins: [noFileParsers],
  sourcemap: "linked",
  legalComments: "none",
  // Loaded at the first launch/attach only, never bundled; a third-party plugin is a runtime import.
  // Plugin dependencies stay packages of their own: @electron/asar reaches for Electron's original-fs, axe-core is read
  // from its file and injected into pages.
  external: ["playwright-core", "playwright-core/*", "electron", "original-fs", "@electron/asar", "@electron/fuses", "axe-core", "pixelmatch", "pngjs"],
  // CommonJS dependencies inside an ESM bundle (ajv, ws) need a require.
  banner: { js: `import { createRequire as __stagewrightCreateRequire } from "node:module";\nconst require = __stagewrightCreateRequire(import.meta.url);` },
  metafile: true,
  logLevel: "warning"
})
const inputs = Object.values(result.metafile.outputs).flatMap((output) => Object.keys(output.inputs))
const forbidden = inputs.filter((input) => /node_modules\/(playwright-core|gpt-tokenizer)\//.test(input))
if (forbidden.length > 0) throw new Error(`the bin must not bundle ${forbidden.slice(0, 3).join(", ")}`)
if (process.argv.includes("--metafile")) writeFileSync(join(root, "dist", "cli.meta.json"), JSON.stringify(result.metafile))
const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0)
const files = Object.keys(result.metafile.outputs).filter((file) => file.endsWith(".js"))
process.stdout.write(`bundled dist/cli.js and ${files.length - 1} chunks in dist/bin: ${(bytes / 1024).toFixed(0)} KiB with source maps\n`)
