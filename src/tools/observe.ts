/**
 * Observe tools: aria snapshots with refs (full, scoped, incremental), screenshots, cheap element
 * search, text and attributes, and waiting for a condition.
 */
import { Effect, Schema } from "effect"
import { Windows, Snapshots, PageOps, titleOf, type WindowEntry } from "../layers/driver/ElectronDriver.js"
import { maskPasswordValues, passwordValues, shownFieldValue } from "../layers/driver/ElectronDriver.js"
import { outputPath, timestampedName } from "../layers/config/paths.js"
import { ServerConfig } from "../layers/config/ServerConfig.js"
import { InvalidArgument, Timeout } from "./errors.js"
import { nearbyFor, noMatchLines } from "./nearby.js"
import { diffCounts, diffSnapshots, markCutSubtrees } from "./snapshot-diff.js"
import { waitForEvent } from "./events.js"
import { defineTool } from "./Tool.js"
import { DEFAULT_ACTION_TIMEOUT, Target, TimeoutMs } from "./shapes.js"

/** Drops unnamed `generic` wrappers (their children move up a level): the same refs in far fewer lines. */
export const compactSnapshot = (snapshot: string): string => {
  const lines = snapshot.split("\n")
  const out: Array<string> = []
  const dropped: Array<number> = [] // indents of dropped wrappers, innermost last
  for (const line of lines) {
    const indent = line.length - line.trimStart().length
    while (dropped.length > 0 && indent <= dropped[dropped.length - 1]!) dropped.pop()
    if (/^\s*- generic(?: \[[^\]]*\])*:$/.test(line) && !/\[active\]/.test(line)) {
      dropped.push(indent)
      continue
    }
    out.push(" ".repeat(Math.max(0, indent - 2 * dropped.length)) + line.trimStart())
  }
  return out.join("\n")
}

const header = (entry: WindowEntry) =>
  titleOf(entry.page).pipe(Effect.map((title) => `${entry.id} "${title}" ${entry.page.url()}`))

export const snapshot = defineTool({
  name: "electron_snapshot",
  description:
    "Accessibility snapshot of the active window with refs (e12) that other tools accept as target. since=\"last\" returns only what changed since this window's previous snapshot; target and depth scope it; compact drops unnamed wrappers. Prefer electron_find to locate a few elements.",
  type: "read",
  errors: ["APP_NOT_RUNNING", "WINDOW_NOT_FOUND", "REF_STALE", "ELEMENT_NOT_FOUND"],
  input: Schema.Struct({
    target: Schema.optional(Target),
    depth: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(0, 100))),
    since: Schema.optional(Schema.Literal("last")),
    compact: Schema.optional(Schema.Boolean)
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const windows = yield* Windows
      const snapshots = yield* Snapshots
      const entry = yield* windows.window()
      const previous = entry.shownSnapshot
      const text = yield* snapshots.snapshot(entry, { ...(input.target !== undefined ? { target: input.target } : {}), ...(input.depth !== undefined ? { depth: input.depth } : {}) })
      const head = yield* header(entry)
      const shape = (s: string) => (input.compact === true ? compactSnapshot(s) : s)
      const whole = input.target === undefined && input.depth === undefined
      // Only a whole-window answer is a baseline: it is what the agent now knows of the page.
      if (whole) yield* snapshots.markShown(entry, text)
      if (input.since === "last" && previous !== undefined && whole) {
        const diff = diffSnapshots(previous, text)
        const body = diff.added === 0 && diff.removed === 0 && diff.changed === 0 ? "(no change)" : shape(diff.text)
        return {
          text: `${head}\nchanges since last snapshot: ${diffCounts(diff)}\n${body}`,
          structured: { window: entry.id, incremental: true, added: diff.added, removed: diff.removed, changed: diff.changed }
        }
      }
      const body = input.depth !== undefined && entry.latestSnapshot !== undefined ? markCutSubtrees(text, entry.latestSnapshot) : text
      return { text: `${head}\n${shape(body)}`, structured: { window: entry.id, incremental: false, refs: entry.refs.size } }
    })
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
      const windows = yield* Windows
      const snapshots = yield* Snapshots
      const pages = yield* PageOps
      const config = yield* ServerConfig
      const entry = yield* windows.window()
      // A name saves under the screenshot folder when the server has one, else the output folder; never outside.
      const folder = config.screenshotDir ?? config.outputDir
      let path: string | undefined
      if (input.name !== undefined || config.screenshotDir !== undefined) {
        const resolved = outputPath(folder, input.name ?? timestampedName(`${entry.id}`, ".png"), ".png")
        if (typeof resolved !== "string") return yield* resolved
        path = resolved
      }
      const buffer = yield* input.target !== undefined
        ? Effect.flatMap(snapshots.locate(entry, input.target), (locator) =>
            pages.run("screenshot the element", () => locator.screenshot({ timeout: DEFAULT_ACTION_TIMEOUT, ...(path ? { path } : {}) }))
          )
        : pages.run("screenshot the window", () => entry.page.screenshot({ fullPage: input.fullPage === true, ...(path ? { path } : {}) }))
      const size = pngSize(buffer)
      const dims = size ? `${size.width}x${size.height}, ` : ""
      const withImage = input.name === undefined || input.inline === true
      return {
        text: `Screenshot of ${input.target ?? entry.id} (${dims}${buffer.length} bytes)${path ? ` saved to ${path}` : ""}.`,
        structured: { window: entry.id, bytes: buffer.length, ...(size ?? {}), ...(path ? { path } : {}) },
        ...(withImage ? { images: [{ data: buffer.toString("base64"), mimeType: "image/png" }] } : {})
      }
    })
})

export const find = defineTool({
  name: "electron_find",
  description:
    "Find elements by selector (role=button[name=\"Save\"], text=…, label=…, placeholder=…, testid=…, css) and get their count and refs with one line each — far cheaper than a full snapshot.",
  type: "read",
  errors: ["APP_NOT_RUNNING", "WINDOW_NOT_FOUND"],
  input: Schema.Struct({
    target: Target,
    limit: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(1, 100))).annotations({ description: "default 10" })
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const windows = yield* Windows
      const snapshots = yield* Snapshots
      const pages = yield* PageOps
      const entry = yield* windows.window()
      const locator = yield* snapshots.locate(entry, input.target)
      const count = yield* pages.count(locator, "find")
      const limit = Math.min(count, input.limit ?? 10)
      // A password field's line would end with its value: masked, like every snapshot.
      const passwords = limit > 0 ? yield* Effect.promise(() => passwordValues(entry.page)) : []
      const items: Array<{ ref: string | null; line: string; visible: boolean }> = []
      for (let i = 0; i < limit; i++) {
        const nth = locator.nth(i)
        const visible = yield* pages.run("find", () => nth.isVisible())
        const line = visible
          ? yield* pages.run("find", () => nth.ariaSnapshot({ mode: "ai", depth: 0, timeout: 2_000 })).pipe(Effect.orElseSucceed(() => ""))
          : ""
        const first = maskPasswordValues(line.split("\n")[0] ?? "", passwords).replace(/^- /, "").replace(/:$/, "")
        const ref = /\[ref=([a-z0-9]+)\]/.exec(first)?.[1] ?? null
        // A hidden element has no aria line, and a visible one whose snapshot timed out must not be blank.
        const fallback = first
          ? ""
          : yield* pages
              .run("find", () =>
                nth.evaluate((el, hidden) => `${el.tagName.toLowerCase()}${hidden ? " (hidden)" : ""} ${(el.textContent ?? "").trim().slice(0, 60)}`, !visible, { timeout: 2_000 })
              )
              .pipe(Effect.orElseSucceed(() => "(element changed while it was read)"))
        items.push({ ref, line: first || fallback, visible })
      }
      if (limit > 0) {
        // The per-element snapshots replaced the page's ref map: refresh it so every ref resolves.
        const full = yield* pages.run("find", () => entry.page.ariaSnapshot({ mode: "ai" }))
        yield* snapshots.recordSnapshot(entry, full)
      }
      const lines = items.map((item) => `- ${item.line}`)
      if (count > limit) lines.push(`… ${count - limit} more`)
      const near = count === 0 ? yield* nearbyFor(input.target) : []
      if (count === 0) lines.push(...noMatchLines(near, input.target))
      return {
        text: `${count} match${count === 1 ? "" : "es"} for ${input.target} in ${entry.id}${lines.length > 0 ? "\n" + lines.join("\n") : ""}`,
        structured: { window: entry.id, count, items, ...(count === 0 ? { near } : {}) }
      }
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
      const windows = yield* Windows
      const snapshots = yield* Snapshots
      const pages = yield* PageOps
      const entry = yield* windows.window()
      const locator = yield* snapshots.locate(entry, input.target)
      if (input.all === true) {
        const texts = yield* pages.run("read texts", () => locator.allInnerTexts())
        return { text: texts.map((t, i) => `${i + 1}. ${t}`).join("\n") || "(no matches)", structured: { texts } }
      }
      const text = yield* pages.run("read text", () => locator.innerText({ timeout: input.timeoutMs ?? DEFAULT_ACTION_TIMEOUT }))
      return { text, structured: { text } }
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
      const windows = yield* Windows
      const snapshots = yield* Snapshots
      const pages = yield* PageOps
      const entry = yield* windows.window()
      const locator = yield* snapshots.locate(entry, input.target)
      const timeout = input.timeoutMs ?? DEFAULT_ACTION_TIMEOUT
      // A password field's value is never shown (nor its value attribute): PASSWORD_MASK stands for it.
      const value = input.name === "value"
        ? yield* pages.run("read the value", () => locator.inputValue({ timeout }).then((read) => shownFieldValue(locator, read, timeout)))
        : yield* pages.run(`read ${input.name}`, () =>
            locator.getAttribute(input.name, { timeout }).then((read) => (read !== null && input.name.toLowerCase() === "value" ? shownFieldValue(locator, read, timeout) : read))
          )
      return { text: value === null ? `(no ${input.name} attribute)` : JSON.stringify(value), structured: { name: input.name, value } }
    })
})

export const waitFor = defineTool({
  name: "electron_wait_for",
  description:
    "Wait until a target reaches a state (visible by default, hidden, attached, detached), text appears or disappears in the window, or the URL contains a string. Use it for late UI before acting.",
  type: "read",
  errors: ["APP_NOT_RUNNING", "WINDOW_NOT_FOUND", "TIMEOUT", "INVALID_ARGUMENT"],
  input: Schema.Struct({
    target: Schema.optional(Target),
    state: Schema.optional(Schema.Literal("visible", "hidden", "attached", "detached")),
    text: Schema.optional(Schema.String.pipe(Schema.maxLength(1_000))).annotations({ description: "text that must appear" }),
    textGone: Schema.optional(Schema.String.pipe(Schema.maxLength(1_000))).annotations({ description: "text that must disappear" }),
    url: Schema.optional(Schema.String.pipe(Schema.maxLength(2_000))).annotations({ description: "URL contains" }),
    timeoutMs: TimeoutMs(10_000)
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const windows = yield* Windows
      const snapshots = yield* Snapshots
      const pages = yield* PageOps
      const entry = yield* windows.window()
      const timeout = input.timeoutMs ?? 10_000
      const started = Date.now()
      const conditions: Array<string> = []
      const asTimeout = <A, E extends { readonly _tag: string }, R>(what: string, effect: Effect.Effect<A, E, R>) =>
        effect.pipe(
          Effect.catchIf(
            (e: { readonly _tag: string }) => e._tag === "Timeout" || e._tag === "ElementNotFound",
            () => Effect.fail(new Timeout({ message: `${what} did not happen within ${timeout} ms` }))
          )
        )
      if (input.target !== undefined) {
        const locator = yield* snapshots.locate(entry, input.target)
        const state = input.state ?? "visible"
        yield* asTimeout(`${input.target} ${state}`, pages.waitSliced(`wait for ${input.target}`, (slice) => locator.first().waitFor({ state, timeout: slice }), timeout))
        conditions.push(`${input.target} is ${state}`)
      }
      if (input.text !== undefined) {
        const text = input.text
        yield* asTimeout(`text "${text}"`, pages.waitSliced("wait for text", (slice) => entry.page.getByText(text).first().waitFor({ state: "visible", timeout: slice }), timeout))
        conditions.push(`"${text}" appeared`)
      }
      if (input.textGone !== undefined) {
        const text = input.textGone
        yield* asTimeout(`text "${text}" gone`, pages.waitSliced("wait for text to go", (slice) => entry.page.getByText(text).first().waitFor({ state: "hidden", timeout: slice }), timeout))
        conditions.push(`"${text}" is gone`)
      }
      if (input.url !== undefined) {
        const part = input.url
        yield* asTimeout(`URL containing "${part}"`, pages.waitSliced("wait for URL", (slice) => entry.page.waitForURL((u) => u.href.includes(part), { timeout: slice, waitUntil: "commit" }), timeout))
        conditions.push(`URL contains "${part}"`)
      }
      if (conditions.length === 0) {
        return yield* new InvalidArgument({ message: "give target, text, textGone or url", hint: "Example: { \"text\": \"Saved\" } or { \"target\": \"testid=late-panel\" }." })
      }
      const elapsed = Date.now() - started
      return { text: `${conditions.join("; ")} after ${elapsed} ms.`, structured: { window: entry.id, elapsedMs: elapsed } }
    })
})

export const observeTools = [snapshot, screenshot, find, getText, getAttribute, waitFor, waitForEvent]
