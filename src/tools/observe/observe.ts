/**
 * Observe tools: aria snapshots with refs (full, scoped, incremental), screenshots, cheap element
 * search, text and attributes, and waiting for a condition.
 */
import { Effect, Schema } from "effect"
import type { Locator } from "playwright-core"
import { prefixRefs, titleOf, type Surface } from "../../layers/driver/ElectronDriver.js"
import { maskPasswordValues, passwordValues, shallow, shownFieldValue } from "../../layers/driver/ElectronDriver.js"
import { outputPath, timestampedName } from "../../layers/config/paths.js"
import { ServerConfig } from "../../layers/config/ServerConfig.js"
import { InvalidArgument } from "../contract/errors.js"
import { nearbyFor, noMatchLines } from "../pipeline/nearby.js"
import { diffCounts, diffSnapshots, markCutSubtrees } from "../snapshot/snapshot-diff.js"
import { parseExpand } from "../snapshot/snapshot-fold.js"
import { CHARS_PER_TOKEN, viewDiff, viewSnapshot, withinBudget, type SnapshotView } from "../snapshot/snapshot-view.js"
import { waitForEvent } from "./events.js"
import { waitFor } from "./wait-for.js"
import { callHandle, type CallHandle } from "../contract/handle.js"
import { menuRow } from "../modal/menu-rows.js"
import { rowsBeforeTree, withRows } from "./snapshot-rows.js"
import { defineTool } from "../contract/Tool.js"
import { DEFAULT_ACTION_TIMEOUT, Target, TimeoutMs } from "../contract/shapes.js"
import { answer } from "../contract/respond.js"

export { compactSnapshot } from "../snapshot/snapshot-view.js"

/** A token budget of an answer (tokens estimated as characters / 4). */
export const Budget = Schema.Number.pipe(Schema.int(), Schema.greaterThanOrEqualTo(100)).annotations({
  description: "max tokens (≈ chars/4), cut marked"
})

const header = (entry: Surface) =>
  titleOf(entry.scope).pipe(
    Effect.map(
      (title) =>
        `${entry.id}${entry.kind === "window" && entry.parentId === undefined ? "" : ` ${entry.kind}${entry.parentId !== undefined ? ` in ${entry.parentId}` : ""}`} "${title}" ${entry.shownUrl()}`
    )
  )

export const snapshot = defineTool({
  name: "electron_snapshot",
  description:
    "Look at and read what the active window shows (text, lists, panels, messages; after a load or an action): its accessibility snapshot with refs (e12) that other tools accept as target; open dialogs and menus lead, as rows. Long lists fold to a sample row and each row's label and refs; expand unfolds. since=\"last\" returns only what changed since this window's previous snapshot; target and depth scope it; compact drops wrappers. Prefer electron_find to locate a few elements.",
  type: "read",
  errors: ["APP_NOT_RUNNING", "WINDOW_NOT_FOUND", "REF_STALE", "ELEMENT_NOT_FOUND"],
  input: Schema.Struct({
    target: Schema.optional(Target),
    depth: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(0, 100))),
    since: Schema.optional(Schema.Literal("last")),
    compact: Schema.optional(Schema.Boolean),
    expand: Schema.optional(Schema.String.pipe(Schema.maxLength(500))).annotations({ description: "e40-e90, a list's ref, or all" }),
    budget: Schema.optional(Budget)
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      // Not gated: a page a web dialog blocks shows the dialog's rows instead of its tree.
      const entry = yield* call.surface(undefined, { gated: false })
      const expand = parseExpand(input.expand === "all" ? undefined : input.expand)
      if (typeof expand === "string")
        return yield* new InvalidArgument({
          message: `expand: ${expand}`,
          hint: 'Pass the range a folded block names, like expand: "e76-e414", a list\'s ref, or "all" for every row.'
        })
      const rows = yield* rowsBeforeTree(call, entry)
      if (rows.blocked) {
        return answer(`${entry.id} ${entry.shownUrl()} (its page is blocked until the dialog below is answered; the tree shows again after)\n${rows.text}`, {
          window: entry.id,
          incremental: false,
          blocked: true,
          ...rows.structured
        })
      }
      const previous = entry.shownSnapshot
      const text = yield* call.snapshot(entry, {
        ...(input.target !== undefined ? { target: input.target } : {}),
        ...(input.depth !== undefined ? { depth: input.depth } : {})
      })
      const head = yield* header(entry)
      const whole = input.target === undefined && input.depth === undefined
      // Only a whole-window answer is a baseline: it is what the agent now knows of the page (all of it, folded or not).
      if (whole) yield* call.markShown(entry, text)
      const options = { compact: input.compact === true, fold: input.expand !== "all", expand, ...(input.budget !== undefined ? { budget: input.budget } : {}) }
      if (input.since === "last" && previous !== undefined && whole) {
        const diff = diffSnapshots(previous, text)
        const none = diff.added === 0 && diff.removed === 0 && diff.changed === 0
        const view = none ? undefined : viewDiff(diff.text, options)
        return answer(withRows(`${head}\nchanges since last snapshot: ${diffCounts(diff)}\n${view?.text ?? "(no change)"}`, rows.text), {
          window: entry.id,
          incremental: true,
          added: diff.added,
          removed: diff.removed,
          changed: diff.changed,
          ...viewFacts(view),
          ...rows.structured
        })
      }
      const body = input.depth !== undefined && entry.latestSnapshot !== undefined ? markCutSubtrees(text, entry.latestSnapshot) : text
      // The application menu as one collapsed row before the page tree (./menu-rows.ts), on a window's unscoped snapshot.
      const menubar = input.target === undefined && entry.frame === undefined && entry.kind !== "guest" ? yield* menuRow : ""
      const view = viewSnapshot(menubar === "" ? body : `${menubar}\n${body}`, options, head)
      return answer(withRows(view.text, rows.text), { window: entry.id, incremental: false, refs: entry.refs.size, ...viewFacts(view), ...rows.structured })
    })
})

/** What folding and the budget did, for structured content (nothing when they left the text as it was). */
const viewFacts = (view: SnapshotView | undefined) => ({
  ...(view !== undefined && view.folded.foldedRows > 0 ? { folded: { rows: view.folded.foldedRows, blocks: view.folded.folds } } : {}),
  ...(view !== undefined && view.cut.cut ? { cut: { shownLines: view.cut.shownLines, totalLines: view.cut.totalLines, rest: view.cut.rest } } : {})
})

/** Width and height of a PNG, from its IHDR chunk. */
export const pngSize = (png: Buffer): { width: number; height: number } | undefined =>
  png.length >= 24 && png.subarray(12, 16).toString("latin1") === "IHDR" ? { width: png.readUInt32BE(16), height: png.readUInt32BE(20) } : undefined

export const screenshot = defineTool({
  name: "electron_screenshot",
  description:
    "PNG of the active window, one element (target) or the full scrollable page, returned as an image. With name it is saved under the output folder instead and only its path, bytes and size come back (inline=true adds the image).",
  type: "read",
  errors: ["APP_NOT_RUNNING", "WINDOW_NOT_FOUND", "ELEMENT_NOT_FOUND", "PATH_NOT_ALLOWED"],
  input: Schema.Struct({
    target: Schema.optional(Target),
    fullPage: Schema.optional(Schema.Boolean),
    name: Schema.optional(Schema.String.pipe(Schema.maxLength(200))).annotations({ description: "file name to save to" }),
    inline: Schema.optional(Schema.Boolean)
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const config = yield* ServerConfig
      const entry = yield* call.surface()
      // A name saves under the screenshot folder when the server has one, else the output folder; never outside.
      const folder = config.screenshotDir ?? config.outputDir
      let path: string | undefined
      if (input.name !== undefined || config.screenshotDir !== undefined) {
        const resolved = outputPath(folder, input.name ?? timestampedName(`${entry.id}`, ".png"), ".png")
        if (typeof resolved !== "string") return yield* resolved
        path = resolved
      }
      const buffer = yield* input.target !== undefined
        ? Effect.flatMap(call.locate(entry, input.target), (locator) =>
            call.run("screenshot the element", () => locator.screenshot({ timeout: DEFAULT_ACTION_TIMEOUT, ...(path ? { path } : {}) }))
          )
        : entry.frame !== undefined
          ? call.run("screenshot the frame", () =>
              entry.frame!.frameElement().then((element) => element.screenshot({ timeout: DEFAULT_ACTION_TIMEOUT, ...(path ? { path } : {}) }))
            )
          : call.run("screenshot the window", () => entry.page.screenshot({ fullPage: input.fullPage === true, ...(path ? { path } : {}) }))
      const size = pngSize(buffer)
      const dims = size ? `${size.width}x${size.height}, ` : ""
      const withImage = input.name === undefined || input.inline === true
      return answer(
        `Screenshot of ${input.target ?? entry.id} (${dims}${buffer.length} bytes)${path ? ` saved to ${path}` : ""}.`,
        { window: entry.id, bytes: buffer.length, ...(size ?? {}), ...(path ? { path } : {}) },
        withImage ? [{ data: buffer.toString("base64"), mimeType: "image/png" }] : undefined
      )
    })
})

/** The computed values of CSS properties of an element (an unknown property reads ""). */
const computedStyles = (call: CallHandle, locator: Locator, properties: ReadonlyArray<string>) =>
  call
    .run("read the computed style", () =>
      locator.evaluate(
        (el, names) => {
          const style = getComputedStyle(el)
          // The page's values are the app's text: each bounded.
          return Object.fromEntries(names.map((name) => [name, style.getPropertyValue(name).slice(0, 200)]))
        },
        [...properties],
        { timeout: 2_000 }
      )
    )
    .pipe(Effect.orElseSucceed(() => ({ "(style)": "element changed while it was read" }) as Record<string, string>))

export const find = defineTool({
  name: "electron_find",
  description:
    'Look for elements by selector (role=button[name="Save"], text=…, label=…, placeholder=…, testid=…, css): see whether they are there, their count and refs with one line each — far cheaper than a full snapshot.',
  type: "read",
  errors: ["APP_NOT_RUNNING", "WINDOW_NOT_FOUND"],
  input: Schema.Struct({
    target: Target,
    limit: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(1, 100))).annotations({ description: "default 10" }),
    style: Schema.optional(Schema.Array(Schema.String.pipe(Schema.maxLength(60))).pipe(Schema.maxItems(20))).annotations({
      description: 'CSS properties to read computed, e.g. ["color"]'
    }),
    budget: Schema.optional(Budget)
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const entry = yield* call.surface()
      const locator = yield* call.locate(entry, input.target)
      const count = yield* call.count(locator, "find")
      const limit = Math.min(count, input.limit ?? 10)
      // A password field's line would end with its value: masked, like every snapshot.
      const passwords = limit > 0 ? yield* Effect.promise(() => shallow(() => passwordValues(entry.page))) : []
      const items: Array<{ ref: string | null; line: string; visible: boolean; style?: Record<string, string> }> = []
      let used = 0
      for (let i = 0; i < limit; i++) {
        const nth = locator.nth(i)
        const visible = yield* call.run("find", () => nth.isVisible())
        const line = visible
          ? yield* call.run("find", () => nth.ariaSnapshot({ mode: "ai", depth: 0, timeout: 2_000 })).pipe(Effect.orElseSucceed(() => ""))
          : ""
        const first = prefixRefs(entry.refPrefix, maskPasswordValues(line.split("\n")[0] ?? "", passwords))
          .replace(/^- /, "")
          .replace(/:$/, "")
        const ref = /\[ref=([a-z0-9]+)\]/.exec(first)?.[1] ?? null
        // A hidden element has no aria line, and a visible one whose snapshot timed out must not be blank.
        const fallback = first
          ? ""
          : yield* call
              .run("find", () =>
                nth.evaluate(
                  (el, hidden) => `${el.tagName.toLowerCase()}${hidden ? " (hidden)" : ""} ${(el.textContent ?? "").trim().slice(0, 60)}`,
                  !visible,
                  { timeout: 2_000 }
                )
              )
              .pipe(Effect.orElseSucceed(() => "(element changed while it was read)"))
        const styles = input.style === undefined || input.style.length === 0 ? undefined : yield* computedStyles(call, nth, input.style)
        const shownStyles =
          styles === undefined
            ? ""
            : ` {${Object.entries(styles)
                .map(([k, v]) => `${k}: ${v}`)
                .join("; ")}}`
        items.push({ ref, line: `${first || fallback}${shownStyles}`, visible, ...(styles !== undefined ? { style: styles } : {}) })
        // Past the budget the other elements would only be cut: they are not read.
        used += first.length + fallback.length + 3
        if (input.budget !== undefined && used > input.budget * CHARS_PER_TOKEN) break
      }
      if (limit > 0) {
        // The per-element snapshots replaced the page's ref map: refresh it so every ref resolves.
        yield* call.snapshot(entry)
      }
      const heading = `${count} match${count === 1 ? "" : "es"} for ${input.target} in ${entry.id}`
      // Within the budget: as many whole lines as fit, then a marker saying how many were left out.
      const shown = withinBudget(
        heading,
        items.map((item) => `- ${item.line}`),
        input.budget
      )
      const kept = items.slice(0, shown.length)
      const lines = [...shown]
      if (kept.length < limit)
        lines.push(`… ${count - kept.length} more (cut at the budget of ${input.budget} tokens; pass a larger budget or a narrower target)`)
      else if (count > limit) lines.push(`… ${count - limit} more`)
      const near = count === 0 ? yield* nearbyFor(input.target) : []
      if (count === 0) lines.push(...noMatchLines(near, input.target))
      return answer(`${heading}${lines.length > 0 ? "\n" + lines.join("\n") : ""}`, {
        window: entry.id,
        count,
        items: kept,
        ...(kept.length < limit ? { cut: { shown: kept.length, budget: input.budget } } : {}),
        ...(count === 0 ? { near } : {})
      })
    })
})

export const getText = defineTool({
  name: "electron_get_text",
  description: "Visible text of an element (innerText); with all=true the texts of every match, in order.",
  type: "read",
  errors: ["APP_NOT_RUNNING", "ELEMENT_NOT_FOUND", "AMBIGUOUS_LOCATOR", "REF_STALE"],
  input: Schema.Struct({ target: Target, all: Schema.optional(Schema.Boolean), timeoutMs: TimeoutMs(DEFAULT_ACTION_TIMEOUT) }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const entry = yield* call.surface()
      const locator = yield* call.locate(entry, input.target)
      if (input.all === true) {
        const texts = yield* call.run("read texts", () => locator.allInnerTexts())
        return answer(texts.map((t, i) => `${i + 1}. ${t}`).join("\n") || "(no matches)", { texts })
      }
      const text = yield* call.run("read text", () => locator.innerText({ timeout: input.timeoutMs ?? DEFAULT_ACTION_TIMEOUT }))
      return answer(text, { text })
    })
})

export const getAttribute = defineTool({
  name: "electron_get_attribute",
  description: "An element's attribute (href, aria-expanded, data-*, …); name \"value\" gives a form field's current value.",
  type: "read",
  errors: ["APP_NOT_RUNNING", "ELEMENT_NOT_FOUND", "AMBIGUOUS_LOCATOR", "REF_STALE"],
  input: Schema.Struct({ target: Target, name: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)), timeoutMs: TimeoutMs(DEFAULT_ACTION_TIMEOUT) }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const entry = yield* call.surface()
      const locator = yield* call.locate(entry, input.target)
      const timeout = input.timeoutMs ?? DEFAULT_ACTION_TIMEOUT
      // A password field's value is never shown (nor its value attribute): PASSWORD_MASK stands for it.
      const value =
        input.name === "value"
          ? yield* call.run("read the value", () => locator.inputValue({ timeout }).then((read) => shownFieldValue(locator, read, timeout)))
          : yield* call.run(`read ${input.name}`, () =>
              locator
                .getAttribute(input.name, { timeout })
                .then((read) => (read !== null && input.name.toLowerCase() === "value" ? shownFieldValue(locator, read, timeout) : read))
            )
      return answer(value === null ? `(no ${input.name} attribute)` : JSON.stringify(value), { name: input.name, value })
    })
})

export const observeTools = [snapshot, screenshot, find, getText, getAttribute, waitFor, waitForEvent]
