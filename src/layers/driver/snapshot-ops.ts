/**
 * The driver's snapshot and ref operations: resolving a target (a ref of the window's latest snapshot or
 * a selector), AI-mode aria snapshots (a full one becomes the window's latest and arms the page's change
 * check first), and the per-snapshot caches.
 *
 * Password fields never show their value: Playwright's aria snapshot prints an `<input type=password>`
 * as `textbox "Name": <its value>` (or a `- text: <value>` child beside a placeholder), so every snapshot
 * the driver returns or records has those values replaced by PASSWORD_MASK, whatever their length.
 */
import { Effect } from "effect"
import { spanned } from "./spans.js"
import type { Frame, Locator, Page } from "playwright-core"
import { InvalidArgument, RefStale, type PlaywrightError } from "./errors.js"
import { armPageChanges, checkPageChanges, hasFrames, MAX_PASSWORDS, PASSWORD_MASK } from "./page-changes.js"
import { shallow } from "./shallow.js"
import { expandSelector, pageFunction, REF_PATTERN } from "./selectors.js"
import { pageSelector } from "./selector-patterns.js"
import { annotateFrames, prefixRefs, refLocator, refNotHere } from "./refs.js"
import type { AppSession, Surface } from "./session.js"

type Run = <A>(what: string, f: () => Promise<A>) => Effect.Effect<A, PlaywrightError>

/** An AI-mode snapshot of a surface: a page's own, or a frame's document. */
const surfaceSnapshot = (scope: Page | Frame, options: { readonly depth?: number } = {}): Promise<string> =>
  "ariaSnapshot" in scope
    ? scope.ariaSnapshot({ mode: "ai", ...options })
    : scope
        .locator("body,frameset")
        .first()
        .ariaSnapshot({ mode: "ai", ...options })

/** What every answer shows for a non-empty password field's value (its length hidden). */
export { PASSWORD_MASK }

/** Whether an element is a password field (`<input type=password>`). Runs in the page. */
const isPasswordInput = pageFunction((element: Element): boolean => element.tagName === "INPUT" && (element as HTMLInputElement).type === "password")

/** The non-empty values of a document's password fields (at most `max`), open shadow roots included. Runs in the page. */
const collectPasswords = pageFunction((max: number): Array<string> => {
  const values: Array<string> = []
  const roots: Array<Document | ShadowRoot> = [document]
  for (let i = 0; i < roots.length && values.length < max; i++) {
    for (const element of Array.from(roots[i]!.querySelectorAll("*"))) {
      if (element.shadowRoot) roots.push(element.shadowRoot)
      if (element.tagName === "INPUT" && (element as HTMLInputElement).type === "password" && (element as HTMLInputElement).value !== "")
        values.push((element as HTMLInputElement).value)
    }
  }
  return values
})

/** The values of the password fields in every frame of a page (a frame that cannot be read has none). */
export const passwordValues = (page: Page): Promise<ReadonlyArray<string>> =>
  Promise.all(page.frames().map((frame) => frame.evaluate(collectPasswords, MAX_PASSWORDS).catch(() => [] as Array<string>))).then((lists) => [
    ...new Set(lists.flat())
  ])

/** A value as Playwright's aria snapshot prints it (YAML, quoted only when it has to be). */
const yamlValue = (text: string): string => {
  const needsQuotes =
    text.length === 0 ||
    [/^\s|\s$/, /[\x00-\x1f\x7f-\x9f]/, /^-/, /[\n:](\s|$)/, /\s#/, /^[&*\],?!>|@"'#%]/, /[{}`]/, /^\[/, /^[-+]?\.(inf|nan)$/i].some((re) => re.test(text)) ||
    !isNaN(Number(text)) ||
    ["y", "n", "yes", "no", "true", "false", "on", "off", "null", "~"].includes(text.toLowerCase())
  return needsQuotes ? JSON.stringify(text) : text
}

/**
 * An aria snapshot with the given password values masked where Playwright prints a field's value: at
 * the end of a line, after `: ` (a textbox's own line, or its `- text:` child).
 */
export const maskPasswordValues = (snapshot: string, values: ReadonlyArray<string>): string => {
  if (values.length === 0) return snapshot
  const printed = new Set<string>()
  for (const value of values) {
    const collapsed = value.replace(/\s+/g, " ").trim()
    for (const form of [value, collapsed]) if (form !== "") for (const shown of [form, yamlValue(form), JSON.stringify(form)]) printed.add(`: ${shown}`)
  }
  const endings = [...printed].sort((a, b) => b.length - a.length)
  return snapshot
    .split("\n")
    .map((line) => {
      const ending = endings.find((e) => line.endsWith(e))
      return ending === undefined ? line : `${line.slice(0, line.length - ending.length)}: ${PASSWORD_MASK}`
    })
    .join("\n")
}

/** An aria snapshot of (a part of) `page` with its password fields' values masked. */
export const maskSnapshot = (page: Page, snapshot: string): Promise<string> => passwordValues(page).then((values) => maskPasswordValues(snapshot, values))

/** A field's value as an answer may show it: PASSWORD_MASK for a non-empty password field. */
export const shownFieldValue = (locator: Locator, value: string, timeout: number): Promise<string> =>
  value === "" ? Promise.resolve(value) : locator.evaluate(isPasswordInput, undefined, { timeout }).then((secret) => (secret ? PASSWORD_MASK : value))

/** At most this many targets' page selectors are kept (a target of up to 2,000 characters each). */
const SELECTORS_KEPT = 500
const decidedSelectors = new Map<string, string>()

/**
 * The selector a target runs as in the page: shorthands expanded, and a regex in it in its linear-time form (it
 * runs on V8's backtracking engine), or INVALID_ARGUMENT when it has none. Decided by the target's text alone,
 * so an agent's repeated targets are decided once (the oldest forgotten past SELECTORS_KEPT).
 */
const selectorOf = (target: string): string | InvalidArgument => {
  const known = decidedSelectors.get(target)
  if (known !== undefined) return known
  const selector = pageSelector(expandSelector(target))
  if (typeof selector === "string") {
    if (decidedSelectors.size >= SELECTORS_KEPT) decidedSelectors.delete(decidedSelectors.keys().next().value!)
    decidedSelectors.set(target, selector)
  }
  return selector
}

/** The driver's snapshot operations; `current` is the session (refs are checked across its surfaces). */
export const snapshotOps = (run: Run, current: Effect.Effect<AppSession | undefined>) => {
  const locate = (entry: Surface, target: string): Effect.Effect<Locator, RefStale | InvalidArgument> => {
    const trimmed = target.trim()
    if (trimmed === "")
      return Effect.fail(
        new InvalidArgument({ message: "target is empty", hint: 'Pass a ref like e12 from electron_snapshot, or a selector like role=button[name="Save"].' })
      )
    // A menu row's ref (src/tools/modal/menu-rows.ts) is answered by electron_click alone.
    if (/^m\d+$/.test(trimmed)) {
      return Effect.fail(
        new InvalidArgument({
          message: `${trimmed} is a ref of the menubar row, not of the page`,
          hint: `electron_click target=${trimmed} lists that menu's items (a menu) or clicks it (an item).`
        })
      )
    }
    // An open dialog's or popped-up menu's ref (./modal-room.ts) is answered by the verbs that take the call's handle.
    if (/^d\d+$/.test(trimmed)) {
      return Effect.fail(
        new InvalidArgument({
          message: `${trimmed} is a ref of an open dialog or menu row, not of the page`,
          hint: `electron_click target=${trimmed} answers a button or item, electron_fill a text field, electron_press_key Enter/Escape the dialog.`
        })
      )
    }
    if (REF_PATTERN.test(trimmed)) {
      if (!entry.refs.has(trimmed)) return Effect.flatMap(current, (s) => Effect.fail(refNotHere(s, entry, trimmed)))
      return Effect.succeed(refLocator(entry, trimmed))
    }
    const selector = selectorOf(trimmed)
    return typeof selector !== "string" ? Effect.fail(selector) : Effect.succeed(entry.scope.locator(selector))
  }

  /**
   * What the agent is shown of a surface's snapshot: password values masked (`passwords`: as the arming check
   * just read them, else read now), frames named, refs with the surface's prefix.
   */
  const shown = (entry: Surface, text: string, passwords?: ReadonlyArray<string>) =>
    Effect.flatMap(current, (s) =>
      Effect.promise(() =>
        (passwords !== undefined ? Promise.resolve(maskPasswordValues(text, passwords)) : shallow(() => maskSnapshot(entry.page, text)))
          .then((masked) => annotateFrames(s, entry, masked))
          .then((named) => prefixRefs(entry.refPrefix, named))
      )
    )
  const ariaSnapshot = (entry: Surface, depth?: number) =>
    Effect.flatMap(
      run("snapshot", () => surfaceSnapshot(entry.scope, depth !== undefined ? { depth } : {})),
      (text) => shown(entry, text)
    )
  // A full snapshot becomes the window's latest: the page is armed first, so pageChanges compares with it;
  // the change summary's snapshot (`armed`) follows a check that armed it already.
  // A snapshot that did not complete (failed, or cut by the summary's time box) may leave the page armed
  // without a latest snapshot to match: the next check is then never quiet (armedAhead).
  // The summary's snapshot masks with the password values its check read while arming (one evaluation, not two),
  // unless frames came since (the check read none of theirs).
  const fullSnapshot = (entry: Surface, armed = false) =>
    Effect.suspend(() => {
      const ahead = armed && entry.armedAhead
      const passwords = ahead ? entry.armedPasswords : undefined
      entry.armedPasswords = undefined
      return Effect.flatMap(
        run("snapshot", () => (ahead ? surfaceSnapshot(entry.scope) : armPageChanges(entry.scope).then(() => surfaceSnapshot(entry.scope)))),
        (text) => shown(entry, text, passwords !== undefined && !hasFrames(entry.scope) ? passwords : undefined)
      ).pipe(Effect.onExit((exit) => Effect.sync(() => void (entry.armedAhead = exit._tag === "Failure"))))
    })
  const refreshRefs = (entry: Surface) => Effect.map(fullSnapshot(entry), (full) => entry.recordSnapshot(full))
  // A quiet answer that names fields leaves them out of the latest snapshot: the next diff repeats them.
  const pageChanges = (entry: Surface) =>
    Effect.promise(() => shallow(() => checkPageChanges(entry.scope, entry.armedAhead))).pipe(
      Effect.tap((changes) =>
        Effect.sync(() => {
          entry.armedAhead = changes.armed === true
          entry.armedPasswords = changes.armed === true ? changes.passwords : undefined
          if (changes.quiet && changes.fields.length > 0) entry.noteFieldsTold()
        })
      )
    )

  // Spanned only under an installed tracer (./spans.ts): an action's change summary takes one.
  const snapshotOf = Effect.fnUntraced(function* (
    entry: Surface,
    options: { readonly target?: string; readonly depth?: number; readonly armed?: boolean } = {}
  ) {
    const depth = options.depth
    if (options.target !== undefined) {
      const locator = yield* locate(entry, options.target)
      const raw = yield* run("snapshot", () => locator.ariaSnapshot({ mode: "ai", ...(depth !== undefined ? { depth } : {}), timeout: 5_000 }))
      const text = yield* shown(entry, raw)
      // A scoped snapshot replaces the page's ref map: take the full one again so every ref stays usable.
      yield* refreshRefs(entry)
      return text
    }
    if (depth === undefined) {
      const text = yield* fullSnapshot(entry, options.armed === true)
      entry.recordSnapshot(text)
      return text
    }
    const text = yield* ariaSnapshot(entry, depth)
    yield* refreshRefs(entry)
    return text
  })

  // A snapshot a tool took itself is recorded masked too: diffs against it show what the agent may see.
  const recordSnapshot = (entry: Surface, text: string) => Effect.map(shown(entry, text), (masked) => entry.recordSnapshot(masked))
  const refCode = (entry: Surface, ref: string, code: () => Promise<string>) => {
    const snapshot = entry.latestSnapshot
    const cached = entry.refCodes.get(ref)
    if (cached !== undefined) return Effect.succeed(cached)
    return Effect.map(
      Effect.promise(() => shallow(code)),
      (computed) => {
        if (entry.latestSnapshot === snapshot) entry.refCodes.set(ref, computed)
        return computed
      }
    )
  }
  const markShown = (entry: Surface, text: string) => Effect.sync(() => entry.markShown(text))
  const forgetSnapshot = (entry: Surface) =>
    Effect.sync(() => {
      entry.recordSnapshot(undefined)
      entry.markShown(undefined)
    })

  const snapshot = (...args: Parameters<typeof snapshotOf>) => spanned("ElectronDriver.snapshot")(snapshotOf(...args))

  return { locate, snapshot, pageChanges, recordSnapshot, refCode, markShown, forgetSnapshot }
}
