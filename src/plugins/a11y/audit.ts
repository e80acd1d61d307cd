/**
 * electron_a11y_audit: axe-core run in the active window (or inside one target). The axe source is
 * evaluated through the DevTools protocol, which a page's CSP does not govern, so strict-CSP apps work.
 */
import type { AxeResults, Result } from "axe-core"
import { Effect, Schema } from "effect"
import { readFileSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { type Surface } from "../../layers/driver/ElectronDriver.js"
import { outputPath, timestampedName } from "../../layers/config/paths.js"
import { ServerConfig } from "../../layers/config/ServerConfig.js"
import { OperationFailed } from "../../tools/contract/errors.js"
import { defineTool } from "../../tools/contract/Tool.js"
import { Target } from "../../tools/contract/shapes.js"
import { describeMarked, label, MARK, pageFunction } from "./refs.js"
import { callHandle } from "../../tools/contract/handle.js"
import { answer } from "../../tools/contract/respond.js"

const IMPACTS = ["minor", "moderate", "serious", "critical"] as const
type Impact = (typeof IMPACTS)[number]

let axeSource: string | undefined
const loadAxe = () => (axeSource ??= readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8"))

/** Loads axe-core into the page once (it stays until the page navigates). */
export const ensureAxe = (entry: Surface) =>
  Effect.gen(function* () {
    const call = yield* callHandle
    const present = yield* call.evaluate(entry, "look for axe", () => typeof (window as { axe?: unknown }).axe === "object")
    if (!present) yield* call.evaluate(entry, "load axe-core", loadAxe())
  })

/** One-line fixes for the rules agents meet most; other rules use axe's own first check message. */
const FIX: Record<string, string> = {
  label: "give the field a <label for>, aria-label or aria-labelledby",
  "color-contrast": "darken the text or lighten its background to reach 4.5:1 (3:1 for large text)",
  "image-alt": 'add alt text (alt="" for decorative images)',
  "button-name": "give the button visible text or an aria-label",
  "link-name": "give the link text or an aria-label",
  "html-has-lang": "set <html lang>",
  "document-title": "add a non-empty <title>",
  "landmark-one-main": "wrap the main content in <main>",
  region: "put all content inside landmarks (main, nav, header, footer)",
  "page-has-heading-one": "add an <h1>",
  "heading-order": "do not skip heading levels",
  "aria-required-attr": "add the ARIA attributes the role requires",
  "aria-valid-attr-value": "fix the ARIA attribute value",
  "select-name": "label the select",
  tabindex: "avoid tabindex above 0",
  "duplicate-id-aria": "make ids referenced by ARIA unique"
}

interface AxeNode {
  readonly target: ReadonlyArray<unknown>
  readonly summary: string
  readonly mark: number
}
interface AxeViolation {
  readonly id: string
  readonly impact: Impact | null
  readonly help: string
  readonly helpUrl: string
  readonly nodes: ReadonlyArray<AxeNode>
}

export const auditTool = defineTool({
  name: "electron_a11y_audit",
  description:
    "Accessibility audit (axe-core) of the active window or one target: violations grouped by rule, impact, the refs of the failing elements (act on them directly) and a fix hint. Works under strict CSP.",
  type: "read",
  errors: ["APP_NOT_RUNNING", "WINDOW_NOT_FOUND", "ELEMENT_NOT_FOUND", "REF_STALE"],
  input: Schema.Struct({
    target: Schema.optional(Target),
    rules: Schema.optional(Schema.Array(Schema.String).pipe(Schema.maxItems(100))).annotations({ description: "only these axe rule ids" }),
    tags: Schema.optional(Schema.Array(Schema.String).pipe(Schema.maxItems(20))).annotations({
      description: "only rules with these tags: wcag2a, wcag2aa, best-practice…"
    }),
    impact: Schema.optional(Schema.Literal(...IMPACTS)).annotations({ description: "minimum impact, default minor" }),
    raw: Schema.optional(Schema.Boolean).annotations({ description: "also write axe's JSON to a file" })
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const config = yield* ServerConfig
      const entry = yield* call.surface()
      const scope = input.target !== undefined ? yield* call.locate(entry, input.target) : undefined
      if (scope !== undefined) yield* call.run(`find ${input.target}`, () => scope.waitFor({ state: "attached", timeout: 5_000 }))
      yield* ensureAxe(entry)
      const options = {
        resultTypes: ["violations"],
        elementRef: true,
        ...(input.rules !== undefined
          ? { runOnly: { type: "rule", values: [...input.rules] } }
          : input.tags !== undefined
            ? { runOnly: { type: "tag", values: [...input.tags] } }
            : {})
      }
      const minRank = IMPACTS.indexOf(input.impact ?? "minor")
      const args = { options, minRank, impacts: [...IMPACTS], attr: MARK, raw: input.raw === true }
      type Args = typeof args
      type Out = { violations: Array<AxeViolation>; passes: number; version: string; raw?: unknown; error?: string }
      // Runs axe, keeps violations at or above the threshold, marks each failing element for ref lookup.
      const inPage = async (root: Element, a: Args): Promise<Out> => {
        const axe = (window as unknown as { axe: { run: (context: Element, options: unknown) => Promise<AxeResults> } }).axe
        let result: AxeResults
        try {
          result = await axe.run(root, a.options)
        } catch (error) {
          return { violations: [], passes: 0, version: "", error: String(error) }
        }
        let mark = 0
        const violations = result.violations
          .filter((v) => a.impacts.indexOf(v.impact ?? "minor") >= a.minRank)
          .map((v) => ({
            id: v.id,
            impact: (v.impact ?? null) as Impact | null,
            help: v.help,
            helpUrl: v.helpUrl,
            nodes: v.nodes.map((n, i) => {
              // Only the nodes the answer shows (10 per rule) are looked up; the others keep their selector.
              const shown = i < 10 && n.element instanceof Element
              if (shown) n.element!.setAttribute(a.attr, String(mark))
              const checks = [...n.any, ...n.all, ...n.none]
              return { target: n.target as ReadonlyArray<unknown>, summary: String(checks[0]?.message ?? ""), mark: shown ? mark++ : -1 }
            })
          }))
        const strip = (list: Array<Result>) => list.map((v) => ({ ...v, nodes: v.nodes.map(({ element: _e, ...n }) => n) }))
        return {
          violations,
          passes: result.passes.length,
          version: result.testEngine?.version ?? "",
          ...(a.raw
            ? { raw: { ...result, violations: strip(result.violations), passes: strip(result.passes), incomplete: strip(result.incomplete), inapplicable: [] } }
            : {})
        }
      }
      const root = scope ?? entry.page.locator("html")
      const out = yield* call.run("run axe-core", () => root.evaluate(pageFunction(inPage), args))
      if (out.error !== undefined)
        return yield* new OperationFailed({
          message: `axe-core failed: ${out.error}`,
          hint: "Check the rule ids and tags (axe-core rule ids like label, color-contrast)."
        })
      return yield* render(entry, out, config.outputDir)
    })
})

const render = (entry: Surface, out: { violations: Array<AxeViolation>; passes: number; version: string; raw?: unknown }, outputDir: string) =>
  Effect.gen(function* () {
    const count = out.violations.reduce((n, v) => n + v.nodes.length, 0)
    const described = yield* describeMarked(
      entry,
      out.violations.reduce((n, v) => n + v.nodes.filter((node) => node.mark >= 0).length, 0)
    )
    let rawFile: string | undefined
    if (out.raw !== undefined) {
      const path = outputPath(outputDir, timestampedName(`a11y-audit-${entry.id}`, ".json"), ".json")
      if (typeof path === "string") {
        writeFileSync(path, JSON.stringify(out.raw, null, 2))
        rawFile = path
      }
    }
    const violations = out.violations.map((v) => ({
      rule: v.id,
      impact: v.impact ?? "minor",
      help: v.help,
      fix: FIX[v.id] ?? v.nodes[0]?.summary ?? v.help,
      helpUrl: v.helpUrl,
      nodes: v.nodes.map((n) => ({ ...(n.mark >= 0 ? described[n.mark] : {}), selector: n.target.map(String).join(" >> ") }))
    }))
    violations.sort((a, b) => IMPACTS.indexOf(b.impact as Impact) - IMPACTS.indexOf(a.impact as Impact))
    const lines = violations.map((v) => {
      const shown = v.nodes.slice(0, 10).map((n) => label(n, `css=${n.selector}`))
      const more = v.nodes.length > 10 ? `, … ${v.nodes.length - 10} more` : ""
      return `${v.impact} ${v.rule}: ${v.help} (${v.nodes.length})\n  ${shown.join(", ")}${more}\n  fix: ${v.fix}`
    })
    const head =
      violations.length === 0
        ? `No violations in ${entry.id} (axe-core ${out.version}, ${out.passes} rules passed).`
        : `${violations.length} rules violated by ${count} elements in ${entry.id} (axe-core ${out.version}, ${out.passes} rules passed):`
    return answer([head, ...lines, ...(rawFile ? [`axe JSON: ${rawFile}`] : [])].join("\n"), {
      window: entry.id,
      violations,
      passes: out.passes,
      ...(rawFile ? { rawFile } : {})
    })
  })
