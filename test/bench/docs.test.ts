/**
 * docs/TOOLS.md is generated from the documentation manifest: it must match a fresh rendering, and the
 * renderer must group, order and describe tools as documented.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { CORE_GROUPS, DEFAULT_PROFILE, PROFILE_NAMES, PROFILES } from "../../src/profile/profiles.js"
import type { ManifestEntry } from "../../src/tools/pipeline/manifest.js"
import { PROFILES_BEGIN, PROFILES_END, renderReadmeProfiles, spliceProfiles } from "../../src/bench/docs/readme-profiles.js"
import { groupTools, loadReferenceInput, parameterRows, pluginApiRows, renderToolsReference, typeOf } from "../../src/bench/docs/tools-reference.js"

const TOOLS_MD = fileURLToPath(new URL("../../docs/TOOLS.md", import.meta.url))
const README_MD = fileURLToPath(new URL("../../README.md", import.meta.url))

const entry = (name: string, extra: Partial<ManifestEntry> = {}): ManifestEntry => ({
  name,
  title: name,
  description: `The ${name} tool.`,
  type: "read",
  evalTarget: null,
  profiles: ["full"],
  plugin: null,
  errors: ["INTERNAL_ERROR", "INVALID_ARGUMENT", "TIMEOUT"],
  inputSchema: { type: "object" },
  annotations: { readOnlyHint: true, openWorldHint: false, reason: "reads the app" },
  ...extra
})

describe("docs/TOOLS.md", () => {
  it.effect("is up to date with the documentation manifest (regenerate with npm run docs:tools)", () =>
    Effect.gen(function* () {
      const input = yield* loadReferenceInput
      const fresh = renderToolsReference(input)
      const committed = readFileSync(TOOLS_MD, "utf8")
      expect(committed === fresh, "docs/TOOLS.md is stale: run npm run docs:tools").toBe(true)
      // Every tool of the manifest has its section, once.
      for (const tool of input.tools) expect(committed.split(`\n### ${tool.name}\n`)).toHaveLength(2)
    })
  )

  it.effect("rendering is deterministic", () =>
    Effect.gen(function* () {
      const input = yield* loadReferenceInput
      expect(renderToolsReference(input)).toBe(renderToolsReference({ tools: [...input.tools].reverse(), plugins: input.plugins }))
    })
  )
})

describe("the README's profile block", () => {
  it("is up to date with the named lists (regenerate with npm run docs:tools)", () => {
    const committed = readFileSync(README_MD, "utf8")
    const fresh = spliceProfiles(committed, renderReadmeProfiles())
    expect(fresh, `README.md lacks the lines ${PROFILES_BEGIN} and ${PROFILES_END}`).toBeDefined()
    expect(committed === fresh, "the README's profile block is stale: run npm run docs:tools").toBe(true)
  })

  it("states every profile's size from src/profile/ and names the default", () => {
    const block = renderReadmeProfiles()
    const flat = block.replace(/\n {2}/g, " ")
    PROFILE_NAMES.forEach((name, i) => {
      const size = `${PROFILES[name].size}${i === 0 ? " tools" : ""}`
      expect(flat).toContain(`\`${name}\` (${name === DEFAULT_PROFILE ? `${size}, the default` : size})`)
    })
    expect(block.startsWith("- **Profiles** (`--tool-profile`): ")).toBe(true)
    expect(block.split("\n").every((line) => line.length <= 105)).toBe(true)
  })

  it("replaces only what lies between the markers, and refuses a README without them", () => {
    const readme = ["# T", "", PROFILES_BEGIN, "- old line", "  more", PROFILES_END, "- next", ""].join("\n")
    expect(spliceProfiles(readme, "- new")).toBe(["# T", "", PROFILES_BEGIN, "- new", PROFILES_END, "- next", ""].join("\n"))
    expect(spliceProfiles("# T\n", "- new")).toBeUndefined()
    expect(spliceProfiles([PROFILES_END, PROFILES_BEGIN].join("\n"), "- new")).toBeUndefined()
    expect(spliceProfiles([PROFILES_BEGIN, PROFILES_END, PROFILES_BEGIN, PROFILES_END].join("\n"), "- new")).toBeUndefined()
  })
})

describe("tool reference renderer", () => {
  const input = {
    tools: [
      entry("electron_zeta_plugin_tool", { plugin: "zeta", profiles: ["essential", "testing", "debug", "full"] }),
      entry("electron_alpha_run", { plugin: "alpha", type: "eval", evalTarget: "main" }),
      entry("electron_eval_renderer", { type: "eval", evalTarget: "renderer" }),
      entry("electron_windows"),
      entry("electron_status"),
      entry("electron_launch", {
        type: "lifecycle",
        errors: ["LAUNCH_FAILED"],
        inputSchema: {
          type: "object",
          required: ["app"],
          properties: {
            app: { type: "string", description: "app folder | main script", minLength: 1, maxLength: 10 },
            mode: { type: "string", enum: ["a", "b"] },
            env: { type: "object", additionalProperties: { type: "string" } },
            fields: {
              type: "array",
              maxItems: 3,
              items: { type: "object", required: ["ref"], properties: { ref: { type: "string" }, value: { anyOf: [{ type: "string" }, { type: "boolean" }] } } }
            }
          }
        }
      })
    ],
    plugins: [
      { name: "zeta", purpose: "Zeta things" },
      { name: "alpha", purpose: "Alpha things." }
    ]
  }

  it("groups core tools in catalog order, then eval tools, then plugins by name, sorted within groups", () => {
    const groups = groupTools(input)
    expect(groups.map((g) => g.id)).toEqual(["app", "windows", "eval", "plugin-alpha", "plugin-zeta"])
    expect(groups[0]!.tools.map((t) => t.name)).toEqual(["electron_launch", "electron_status"])
    const text = renderToolsReference(input)
    const order = [
      "## app",
      "### electron_launch",
      "### electron_status",
      "## windows",
      "## eval",
      "## plugin alpha",
      "### electron_alpha_run",
      "## plugin zeta"
    ]
    const positions = order.map((heading) => text.indexOf(`\n${heading}\n`))
    expect(positions.every((p) => p > 0)).toBe(true)
    expect(positions).toEqual([...positions].sort((a, b) => a - b))
    expect(Object.keys(CORE_GROUPS)[0]).toBe("app")
    expect(text).toContain("Alpha things. Loaded with `--plugin alpha`")
    expect(text).toContain("Zeta things. Loaded with `--plugin zeta`")
  })

  it("shows type, eval target, profiles, plugin, errors and the parameters of each tool", () => {
    const text = renderToolsReference(input)
    const launch = text.slice(text.indexOf("### electron_launch"), text.indexOf("### electron_status"))
    expect(launch).toContain("- Type: `lifecycle`")
    expect(launch).toContain("- Eval target: none")
    expect(launch).toContain("- Plugin: none (core)")
    expect(launch).toContain("- Errors: `LAUNCH_FAILED`")
    expect(launch).toContain("| `app` | `string` | yes | app folder \\| main script (length 1 to 10) |")
    expect(launch).toContain('| `mode` | `"a" \\| "b"` | no |  |')
    expect(launch).toContain("| `env` | `Record<string, string>` | no |  |")
    expect(launch).toContain("| `fields` | `object[]` | no | (items at most 3) |")
    expect(launch).toContain("| `fields[].ref` | `string` | yes |  |")
    expect(launch).toContain("| `fields[].value` | `string \\| boolean` | no |  |")
    const alpha = text.slice(text.indexOf("### electron_alpha_run"))
    expect(alpha).toContain("- Eval target: `main` (listed only with `--allow-eval main`)")
    expect(alpha).toContain("- Plugin: `alpha` (listed only with `--plugin alpha`)")
    expect(alpha).toContain("No parameters.")
  })

  it("derives types and rows from JSON Schema", () => {
    expect(typeOf({ type: "array", items: { anyOf: [{ type: "string" }, { type: "number" }] } })).toBe("(string | number)[]")
    expect(typeOf({ const: "x" })).toBe('"x"')
    expect(typeOf({})).toBe("any")
    expect(parameterRows({ type: "object", properties: { n: { type: "integer", minimum: 0, default: 5 } } })).toEqual([
      { name: "n", type: "integer", required: false, description: "(range at least 0) Default: `5`." }
    ])
  })

  it("gives a timeoutMs the server's cap rule, not the shapes' absolute 600000", () => {
    const [row] = parameterRows({
      type: "object",
      properties: { timeoutMs: { type: "integer", minimum: 0, maximum: 600_000, description: "ms, default 5000" } }
    })
    expect(row!.description).toContain("`--operation-timeout-ms`: 60000 by default")
    expect(row!.description).not.toContain("600000")
    expect(readFileSync(TOOLS_MD, "utf8")).not.toContain("600000")
  })
})

describe("the Plugin API section", () => {
  it("lists every field of the PluginValue Schema, nested, with requiredness and constraints", () => {
    const rows = pluginApiRows()
    expect(rows.map((r) => r.name)).toEqual([
      "name",
      "purpose",
      "stagewright",
      "config",
      "mainHooks",
      "mainHooks[].name",
      "mainHooks[].install",
      "observers",
      "observers[].name",
      "observers[].make",
      "tools",
      "tools[].name",
      "tools[].description",
      "tools[].input",
      "tools[].type",
      "tools[].evalTarget",
      "tools[].errors",
      "tools[].destructive",
      "tools[].openWorld",
      "tools[].readOnly",
      "tools[].title",
      "tools[].idempotent",
      "tools[].handler"
    ])
    expect(rows.find((r) => r.name === "stagewright")).toMatchObject({ required: true, type: "string" })
    expect(rows.find((r) => r.name === "stagewright")!.description).toContain("semver range")
    expect(rows.find((r) => r.name === "config")).toMatchObject({ required: false, type: "EffectSchema" })
    expect(rows.find((r) => r.name === "tools[].evalTarget")).toMatchObject({ required: false, type: '"renderer" | "main"' })
    expect(rows.find((r) => r.name === "tools[].errors")!.type).toMatch(/^\("APP_NOT_RUNNING" \| .*\)\[\]$/)
    const text = renderToolsReference({ tools: [], plugins: [] })
    expect(text).toContain("\n## Plugin API\n")
    expect(text).toContain("| `mainHooks[].install` | `Function` | yes | a self-contained function (electron) =&gt; void |")
  })
})
