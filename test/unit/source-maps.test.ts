/**
 * The source-map reader's bounds: it maps through a map beside the bundle (no comment), an inline one and
 * one its comment names; it never reads outside the app's folder (a symlinked bundle or map leading out,
 * a comment naming a path out), nor a map over the size bound, nor anything without an app folder.
 */
import { describe, expect, it } from "@effect/vitest"
import { buildSync } from "esbuild"
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { makeMapper, MAX_BYTES } from "../../src/tools/debug/source-maps.js"

const SOURCE = ["export function boom(): never {", "  throw new Error('boom')", "}", "boom()", ""].join("\n")

/** Bundles SOURCE into dir/name.js with the given map mode; the position of its throw in the bundle. */
const bundle = (dir: string, name: string, sourcemap: "inline" | "linked" | "external") => {
  mkdirSync(join(dir, "src"), { recursive: true })
  writeFileSync(join(dir, "src", `${name}.ts`), SOURCE)
  buildSync({ entryPoints: [join(dir, "src", `${name}.ts`)], outfile: join(dir, `${name}.js`), bundle: true, minify: true, sourcemap, logLevel: "silent" })
  const code = readFileSync(join(dir, `${name}.js`), "utf8")
  return `${join(dir, `${name}.js`)}:1:${code.indexOf("throw") + 1}`
}

describe("source maps", () => {
  it("maps through a sibling .map (no comment), an inline map and a linked one: original first, bundle kept", async () => {
    const app = mkdtempSync(join(tmpdir(), "sw-maps-"))
    const mapper = await makeMapper(app)
    for (const mode of ["external", "inline", "linked"] as const) {
      const at = bundle(app, mode, mode)
      expect(await mapper.map(`Error: boom\n    at boom (file://${at})`)).toBe(
        `Error: boom\n    at boom (src/${mode}.ts:2:3 [${mode}.js:1:${at.split(":").pop()}])`
      )
    }
  })

  it("reads nothing outside the app folder, over the size bound, or without an app folder", async () => {
    const outside = mkdtempSync(join(tmpdir(), "sw-maps-out-"))
    const app = mkdtempSync(join(tmpdir(), "sw-maps-app-"))
    const outsideAt = bundle(outside, "out", "linked")
    // A bundle outside, reached through a link inside the app folder.
    symlinkSync(join(outside, "out.js"), join(app, "linked.js"))
    // A bundle inside whose comment names a map outside.
    const insideAt = bundle(app, "escape", "external")
    writeFileSync(join(app, "escape.js"), `${readFileSync(join(app, "escape.js"), "utf8")}\n//# sourceMappingURL=../${outside.split("/").pop()}/out.js.map\n`)
    // A bundle whose map is a link to one outside.
    const linkAt = bundle(app, "maplink", "linked")
    symlinkSync(join(outside, "out.js.map"), join(app, "maplink.js.map.lnk"))
    writeFileSync(
      join(app, "maplink.js"),
      `${readFileSync(join(app, "maplink.js"), "utf8").replace(/sourceMappingURL=.*$/m, "sourceMappingURL=maplink.js.map.lnk")}`
    )
    // A map over the bound.
    const bigAt = bundle(app, "big", "external")
    writeFileSync(join(app, "big.js.map"), " ".repeat(MAX_BYTES + 1))
    const mapper = await makeMapper(app)
    for (const text of [`at x (${outsideAt})`, `at x (${join(app, "linked.js")}:1:5)`, `at x (${insideAt})`, `at x (${linkAt})`, `at x (${bigAt})`]) {
      expect(await mapper.map(text)).toBe(text)
    }
    expect(await (await makeMapper(undefined)).map(`at x (${insideAt})`)).toBe(`at x (${insideAt})`)
  })
})
