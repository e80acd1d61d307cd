/**
 * How targets are written: refs from the latest snapshot, Playwright selectors and our shorthands; and
 * the function values handed to playwright-core's evaluate from source text.
 */

/**
 * Where an element is looked for: a ref from the latest snapshot or a Playwright selector. A ref is
 * Playwright's (`e5`, `f2e3` inside a frame), maybe after the id of the view or guest it is of (`v1e5`: ./refs.ts).
 */
export const REF_PATTERN = /^(?:[vg]\d+)?(?:f\d+)?e\d+$/

/**
 * Our selector shorthands, the one table: each is rewritten to the engine Playwright's getBy* locator uses,
 * segment by segment, so they chain with `>>` like any selector (`testid=row >> nth=2`), and recorded as
 * that getBy* call (src/tools/contract/step-code.ts). A quoted value matches exactly (case-sensitive); an unquoted
 * one matches case-insensitively as a substring (a test id always exactly).
 */
export interface SelectorShorthand {
  readonly prefix: string
  /** The getBy* method it stands for in recorded code. */
  readonly method: string
  /** Whether a quoted value is `{ exact: true }` (getByTestId is always exact). */
  readonly exactable: boolean
  /** The selector engine text for the value (quotes included as written). */
  readonly engine: (value: string) => string
}

const isQuoted = (value: string) => /^(["']).*\1$/.test(value)
const unquote = (value: string) => (isQuoted(value) ? value.slice(1, -1) : value)
/** `"x"s` (exact) for a quoted value, `"x"i` (substring, any case) otherwise. */
const textValue = (value: string) => `${JSON.stringify(unquote(value))}${isQuoted(value) ? "s" : "i"}`
const attribute = (name: string) => (v: string) => `internal:attr=[${name}=${textValue(v)}]`

export const SELECTOR_SHORTHANDS: ReadonlyArray<SelectorShorthand> = [
  { prefix: "testid=", method: "getByTestId", exactable: false, engine: (v) => `internal:testid=[data-testid=${JSON.stringify(unquote(v))}s]` },
  { prefix: "label=", method: "getByLabel", exactable: true, engine: (v) => `internal:label=${textValue(v)}` },
  { prefix: "placeholder=", method: "getByPlaceholder", exactable: true, engine: attribute("placeholder") },
  { prefix: "title=", method: "getByTitle", exactable: true, engine: attribute("title") },
  { prefix: "alt=", method: "getByAltText", exactable: true, engine: attribute("alt") }
]

/** The shorthand a selector segment is written in, with its value (unquoted) and whether it was quoted. */
export const shorthandOf = (segment: string): { readonly shorthand: SelectorShorthand; readonly value: string; readonly quoted: boolean } | undefined => {
  const shorthand = SELECTOR_SHORTHANDS.find(({ prefix }) => segment.startsWith(prefix))
  if (shorthand === undefined) return undefined
  const raw = segment.slice(shorthand.prefix.length)
  return { shorthand, value: unquote(raw), quoted: isQuoted(raw) }
}

export const expandSelector = (target: string): string =>
  target
    .split(/\s+>>\s+/)
    .map((segment) => {
      const found = SELECTOR_SHORTHANDS.find(({ prefix }) => segment.startsWith(prefix))
      return found ? found.engine(segment.slice(found.prefix.length)) : segment
    })
    .join(" >> ")

/**
 * A function value whose toString() is `source`, for playwright-core's evaluate (which sends a function's
 * text to the page or the main process, and compiles it there). The source is never compiled or run in
 * this process: the value itself does nothing when called, so a caller's "() => 0, sideEffect()" cannot
 * reach the server.
 */
export const toFunction = (source: string): ((...args: Array<any>) => unknown) => {
  const inert = () => {
    throw new Error("a function built from source runs in the page or the main process, never here")
  }
  Object.defineProperty(inert, "toString", { value: () => source })
  return inert
}

/**
 * The source of a function to run in the main process. A transpiler that keeps function names (tsx,
 * esbuild's keepNames) calls a `__name` helper inside the function, which the main process lacks: the
 * source defines a harmless one around it.
 */
export const mainSource = (fn: (...args: Array<never>) => unknown): string =>
  `(electron, arg) => { const __name = (target) => target; return (${fn.toString()})(electron, arg) }`

/**
 * A function to run in a page (page.evaluate, locator.evaluate), made to survive the same transpilers:
 * the page lacks `__name` too, so the wrapper defines it locally.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any function shape passes through unchanged
export const pageFunction = <F extends (...args: Array<any>) => unknown>(fn: F): F =>
  new Function(`return (...args) => { const __name = (f) => f; return (${fn.toString()})(...args) }`)() as F
