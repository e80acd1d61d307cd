/**
 * A plain field: an input (not a password field) or textarea with nothing of an editor around or in it: no code
 * editor's container (Monaco, CodeMirror 6 and 5) above it, no contenteditable on or above it, no child nodes, not
 * in a shadow tree. Playwright's fill is right for such a field; anything else is read first (a code editor takes
 * its own keys, a password field's value is never recorded: src/tools/interact/typing.ts).
 *
 * The test is one XPath on the element itself (`self::`: its `ancestor` axis looks through the whole document, and
 * the match is Chromium's own). It is told two ways:
 * - `PLAIN_FIELD_SELECTOR`, Playwright's xpath engine chained after a target: a count of it tells plain (one round
 *   trip of its own);
 * - the `stagewright-plain-field` selector engine, registered with playwright-core when the driver loads it: chained
 *   after a target (`plainFieldOf`), it passes an element the test holds for and throws NOT_PLAIN for any other, so
 *   an action on it runs on a plain field with no round trip of its own, and fails at once (before any input) on
 *   anything else. It runs in Playwright's utility world, out of the page's scripts' reach. A launch's context has
 *   it; a context found over CDP (an attach, a fuse-off build) does not, and `ifPlainField` counts first there.
 */
import type { BrowserContext, Locator, Page } from "playwright-core"

const classHas = (name: string) => `contains(concat(' ', normalize-space(@class), ' '), ' ${name} ')`
const LOWER = "translate(@type, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')"
const PLAIN_FIELD_XPATH =
  `self::*[(self::input and not(${LOWER} = 'password')) or self::textarea][not(node())][ancestor::html]` +
  `[not(ancestor-or-self::*[@contenteditable])][not(ancestor::*[${classHas("monaco-editor")} or ${classHas("cm-editor")} or ${classHas("CodeMirror")}])]`

/** The test as a Playwright selector to chain after a target (`locator.locator(PLAIN_FIELD_SELECTOR)`). */
export const PLAIN_FIELD_SELECTOR = `xpath=${PLAIN_FIELD_XPATH}`

/** The selector engine's name. */
export const PLAIN_FIELD_ENGINE = "stagewright-plain-field"

/** What the engine throws for an element that is not a plain field (in the error's text). */
export const NOT_PLAIN = "stagewright: not a plain field"

/** The engine's source: an expression for Playwright's `selectors.register` (evaluated in each frame's utility world). */
const engineSource = `(() => {
  const test = ${JSON.stringify(`boolean(${PLAIN_FIELD_XPATH})`)}
  return {
    queryAll(root) {
      const document = root && root.ownerDocument
      if (!document || root.nodeType !== 1 || !document.evaluate(test, root, null, XPathResult.BOOLEAN_TYPE, null).booleanValue)
        throw new Error(${JSON.stringify(NOT_PLAIN)})
      return [root]
    }
  }
})()`

interface Selectors {
  readonly register: (name: string, script: { readonly content: string }, options?: { readonly contentScript?: boolean }) => Promise<void>
}

const registered = new WeakSet<Selectors>()
/** One registration per playwright-core: two launches at once (two HTTP sessions) share it. */
const registering = new WeakMap<Selectors, Promise<void>>()
/** The contexts made with the engine: playwright-core gives registered engines to a launch's context, not to one connectOverCDP finds. */
const withEngine = new WeakSet<BrowserContext>()

/**
 * Registers the engine with a playwright-core (once; before its first launch, so the launch's context has it). A
 * second server in the same process finds it registered. playwright-core's `selectors` is shared by the process: an
 * integrator's own playwright-core use sees one more engine name, used only where chained. A registration that fails
 * leaves the fills to the count.
 */
export const registerPlainFieldEngine = (playwright: { readonly selectors: Selectors }): Promise<void> => {
  const selectors = playwright.selectors
  let pending = registering.get(selectors)
  if (pending === undefined) {
    pending = selectors.register(PLAIN_FIELD_ENGINE, { content: engineSource }, { contentScript: true }).then(
      () => void registered.add(selectors),
      (error: unknown) => void (String(error).includes("already registered") && registered.add(selectors))
    )
    registering.set(selectors, pending)
  }
  return pending
}

/** Notes a context made by `playwright`'s launch after the engine was registered: its pages have the engine. */
export const notePlainFieldEngine = (playwright: { readonly selectors: Selectors }, context: BrowserContext): void => {
  if (registered.has(playwright.selectors)) withEngine.add(context)
}

/** The target restricted to a plain field: an action on it fails with NOT_PLAIN at once when the target is anything else. */
export const plainFieldOf = (target: Locator): Locator => target.locator(`${PLAIN_FIELD_ENGINE}=field`)

/**
 * Whether the target is one plain field, told by one selector count (one round trip, where the editor probe's page
 * function takes eleven): false when it is not there yet, not plain or not known (ask the probe then).
 */
export const isPlainField = (locator: Locator): Promise<boolean> =>
  Promise.resolve()
    .then(() => locator.locator(PLAIN_FIELD_SELECTOR).count())
    .then(
      (n) => n === 1,
      () => false
    )

/**
 * Runs `use` (an action: fill, type) on the target when it is a plain field, else fails with NOT_PLAIN before any
 * input: told by the action's own lookup where the page's context has the engine (`use` gets the restricted
 * target), else by isPlainField first.
 */
export const ifPlainField = async <A>(page: Page, target: Locator, use: (field: Locator) => Promise<A>): Promise<A> => {
  if (withEngine.has(page.context())) return use(plainFieldOf(target))
  if (!(await isPlainField(target))) throw new Error(NOT_PLAIN)
  return use(target)
}

/** Whether an ifPlainField action failed because the target is not a plain field. */
export const isNotPlainField = (error: { readonly _tag: string; readonly cause?: unknown }): boolean =>
  error._tag === "OperationFailed" && String(error.cause ?? "").includes(NOT_PLAIN)
