/**
 * Whether a page changed since its last full snapshot, without taking another: an aria snapshot of a
 * whole window is the renderer's heaviest read (~25 ms for the tasks board's 470 elements), and an
 * action's change summary needs one only when something besides field values changed.
 *
 * Before each full snapshot the page is armed: a MutationObserver (document and open shadow roots)
 * marks any DOM change, and the form fields' values, every element's visibility and the focused element
 * are noted. After an action one evaluation says whether the DOM changed, which fields changed (at most
 * a few, with their new values), whether visibility changed anywhere and where the focus went. Only a
 * page whose DOM and visibility are as they were is "quiet"; anything else (a navigation, a page with
 * frames, more than MAX_FIELDS fields changed) asks for the full snapshot. The page-side state is a
 * non-enumerable symbol property of the window, out of the app's way.
 */
import type { Frame, Page } from "playwright-core"
import { pageFunction } from "./selectors.js"

/** What a change summary shows for a non-empty password field's value (snapshots.ts masks snapshots the same way). */
export const PASSWORD_MASK = "••••"

/** More changed fields than this is a script at work: the full snapshot shows it better. */
export const MAX_FIELDS = 3

/** A page with more elements than this is not noted (the arm would cost milliseconds of its own). */
export const MAX_ELEMENTS = 20_000

export interface FieldChange {
  /** The field's label (aria-label, label, placeholder, name or id). */
  readonly label: string
  /** Its value now: text (PASSWORD_MASK for a password field), "checked" / "unchecked" (a checkbox or radio), or the selected options. */
  readonly value: string
  /** A checkbox or radio: `value` is its state. */
  readonly checkable: boolean
}

export type PageChanges = { readonly quiet: false } | { readonly quiet: true; readonly fields: ReadonlyArray<FieldChange>; readonly focus: string | undefined }

/** At most this many password values are read for masking (snapshot-ops.ts reads as many). */
export const MAX_PASSWORDS = 100

const KEY = "stagewright.page-changes"

/**
 * The page-side half, installed once per document: `arm` and `check` live on the window (under a
 * symbol), so each later call sends a one-line expression instead of this function.
 */
const install = pageFunction(
  ({
    key: keyName,
    maxFields,
    maxElements,
    maxPasswords,
    mask
  }: {
    readonly key: string
    readonly maxFields: number
    readonly maxElements: number
    readonly maxPasswords: number
    readonly mask: string
  }): void => {
    type Noted = {
      dirty: boolean
      observer: MutationObserver
      elements: Array<Element>
      values: Array<string>
      visible: Array<boolean>
      active: Element | null
    }
    const key = Symbol.for(keyName)
    // zone.js (Angular) wraps MutationObserver to run change detection after each callback; the original
    // it keeps aside costs the app nothing.
    const Observer = ((window as unknown as Record<string, typeof MutationObserver | undefined>)["__zone_symbol__MutationObserver"] ??
      MutationObserver) as typeof MutationObserver
    const noted: Noted = { dirty: true, observer: new Observer(() => (noted.dirty = true)), elements: [], values: [], visible: [], active: null }
    const elementsOf = (root: Document | ShadowRoot, out: Array<Element>, roots: Array<ShadowRoot>) => {
      for (const element of Array.from(root.querySelectorAll("*"))) {
        out.push(element)
        if (element.shadowRoot) {
          roots.push(element.shadowRoot)
          elementsOf(element.shadowRoot, out, roots)
        }
      }
    }
    const isField = (e: Element) => e instanceof HTMLInputElement || e instanceof HTMLTextAreaElement || e instanceof HTMLSelectElement
    const valueOf = (e: Element): string => {
      if (e instanceof HTMLSelectElement)
        return Array.from(e.selectedOptions)
          .map((o) => o.label || o.text)
          .join(", ")
      if (e instanceof HTMLInputElement && (e.type === "checkbox" || e.type === "radio")) return e.checked ? "checked" : "unchecked"
      if (e instanceof HTMLInputElement || e instanceof HTMLTextAreaElement) return e.value
      return ""
    }
    // A password field's value is compared as it is, but told masked, whatever its length.
    const isPassword = (e: Element): e is HTMLInputElement => e instanceof HTMLInputElement && e.type === "password"
    const shownValueOf = (e: Element, value: string): string => (isPassword(e) && value !== "" ? mask : value)
    const labelOf = (e: Element): string => {
      const field = e as HTMLInputElement
      const labelled = field.labels && field.labels[0] ? field.labels[0].innerText || field.labels[0].textContent || "" : ""
      const own = isField(e) ? "" : (e as HTMLElement).innerText || ""
      const text =
        e.getAttribute("aria-label") ||
        labelled ||
        own ||
        e.getAttribute("placeholder") ||
        e.getAttribute("name") ||
        (e.id ? `#${e.id}` : e.tagName.toLowerCase())
      const trimmed = text.replace(/\s+/g, " ").trim()
      return trimmed.length > 60 ? `${trimmed.slice(0, 59)}…` : trimmed
    }
    const bounded = (text: string) => (text.length > 100 ? `${text.slice(0, 99)}… (${text.length} chars)` : text)
    const visibleOf = (e: Element) => (typeof e.checkVisibility === "function" ? e.checkVisibility() : e.getClientRects().length > 0)
    const deepActive = () => {
      let active = document.activeElement
      while (active && active.shadowRoot && active.shadowRoot.activeElement) active = active.shadowRoot.activeElement
      return active
    }

    const valuesOf = (elements: ReadonlyArray<Element>) => elements.map((e) => (isField(e) ? valueOf(e) : ""))

    // Returns the non-empty password fields' values it saw (undefined for a page too big to note), for the
    // snapshot that follows to mask without reading them again.
    const arm = (): ReadonlyArray<string> | undefined => {
      const elements: Array<Element> = []
      const roots: Array<ShadowRoot> = []
      elementsOf(document, elements, roots)
      if (elements.length > maxElements) {
        // Too big to note cheaply: never quiet (the full snapshot of such a page is the slow part anyway).
        noted.dirty = true
        noted.elements = []
        return undefined
      }
      const options = { subtree: true, childList: true, attributes: true, characterData: true }
      noted.observer.observe(document, options)
      for (const root of roots) noted.observer.observe(root, options)
      noted.observer.takeRecords()
      noted.dirty = false
      noted.elements = elements
      noted.values = valuesOf(elements)
      noted.visible = elements.map(visibleOf)
      noted.active = deepActive()
      const passwords: Array<string> = []
      for (const e of elements) {
        if (passwords.length === maxPasswords) break
        if (isPassword(e) && e.value !== "") passwords.push(e.value)
      }
      return passwords
    }

    const check = (): PageChanges => {
      if (noted.observer.takeRecords().length > 0 || noted.dirty) {
        noted.dirty = true
        return { quiet: false }
      }
      // The DOM is as it was, so the noted elements are the page's elements, in the same order.
      const fields: Array<FieldChange> = []
      for (let i = 0; i < noted.elements.length; i++) {
        const element = noted.elements[i]!
        if (!isField(element)) continue
        const value = valueOf(element)
        if (value === noted.values[i]) continue
        if (fields.length === maxFields) return { quiet: false }
        fields.push({
          label: labelOf(element),
          value: bounded(shownValueOf(element, value)),
          checkable: element instanceof HTMLInputElement && (element.type === "checkbox" || element.type === "radio")
        })
      }
      for (let i = 0; i < noted.elements.length; i++) if (visibleOf(noted.elements[i]!) !== noted.visible[i]) return { quiet: false }
      const active = deepActive()
      const focus = active !== noted.active && active !== null && active !== document.body ? labelOf(active) : undefined
      // Quiet: what the agent is told becomes the baseline of the next check.
      noted.values = valuesOf(noted.elements)
      noted.active = active
      return { quiet: true, fields, focus }
    }

    Object.defineProperty(window, key, { value: { arm, check }, enumerable: false, configurable: true })
    void arm()
  }
)

const LIMITS = { key: KEY, maxFields: MAX_FIELDS, maxElements: MAX_ELEMENTS, maxPasswords: MAX_PASSWORDS, mask: PASSWORD_MASK } as const
const ARM = `(() => { const noted = window[Symbol.for(${JSON.stringify(KEY)})]; if (noted === undefined) return false; noted.arm(); return true })()`
// A page that is not quiet (or `force`: armed ahead and never snapshotted) is armed in the same evaluation,
// for the full snapshot that follows: one evaluation instead of a check and an arm, which also reads the
// password values that snapshot masks (`passwords`; absent for a page too big to note).
const checkAndArm = (force: boolean) =>
  `(() => { const noted = window[Symbol.for(${JSON.stringify(KEY)})]; if (noted === undefined) return { quiet: false }; const r = noted.check(); if (${force} || !r.quiet) { const passwords = noted.arm(); return { quiet: false, armed: true, passwords } } return r })()`
const CHECK = checkAndArm(false)
const CHECK_FORCED = checkAndArm(true)

/** Whether a page (or frame) holds frames, which the check does not see into. */
export const hasFrames = (page: Page | Frame): boolean => ("frames" in page ? page.frames().length - 1 : page.childFrames().length) > 0

/** Notes the page's state as the baseline of the next check; call it right before a full snapshot. */
export const armPageChanges = (page: Page | Frame): Promise<void> =>
  page
    .evaluate(ARM)
    .then((armed) => (armed === true ? undefined : page.evaluate(install, LIMITS)))
    .then(
      () => undefined,
      () => undefined
    )

/**
 * What changed since the page was armed. A page with frames (which the check does not see into), a
 * navigated page, or a failed evaluation is never quiet. A page that is not quiet is armed again by the
 * same evaluation (`armed`: the full snapshot that follows skips its own arm); `stale` (armed ahead by the
 * last check, but no snapshot followed) is never quiet and is armed again.
 */
export const checkPageChanges = async (
  page: Page | Frame,
  stale = false
): Promise<PageChanges & { readonly armed?: boolean; readonly passwords?: ReadonlyArray<string> }> => {
  if (hasFrames(page)) return { quiet: false }
  const result = await page.evaluate<PageChanges & { armed?: boolean; passwords?: ReadonlyArray<string> }>(stale ? CHECK_FORCED : CHECK).catch(() => undefined)
  return result ?? { quiet: false }
}
