/**
 * What the assertion tools read of an element in the page, each in one evaluation so composite predicates
 * are checked atomically: its states (visible, enabled, checked, focused, in the viewport, …) and how many
 * of a target's matches are visible.
 */
import type { Locator } from "playwright-core"

export const STATE_KEYS = ["visible", "hidden", "enabled", "disabled", "checked", "focused", "editable", "empty", "inViewport", "attached"] as const
export type StateKey = (typeof STATE_KEYS)[number]

/** Each state as Playwright's matcher, for the exported test. */
export const STATE_MATCHERS: Record<StateKey, (on: boolean) => string> = {
  visible: (on) => (on ? "toBeVisible()" : "toBeHidden()"),
  hidden: (on) => (on ? "toBeHidden()" : "toBeVisible()"),
  enabled: (on) => (on ? "toBeEnabled()" : "toBeDisabled()"),
  disabled: (on) => (on ? "toBeDisabled()" : "toBeEnabled()"),
  checked: (on) => (on ? "toBeChecked()" : "not.toBeChecked()"),
  focused: (on) => (on ? "toBeFocused()" : "not.toBeFocused()"),
  editable: (on) => (on ? "toBeEditable()" : "not.toBeEditable()"),
  empty: (on) => (on ? "toBeEmpty()" : "not.toBeEmpty()"),
  inViewport: (on) => (on ? "toBeInViewport()" : "not.toBeInViewport()"),
  attached: (on) => (on ? "toBeAttached()" : "not.toBeAttached()")
}

export type ElementState = Record<StateKey, boolean>

/**
 * An element's states in one evaluation: undefined when nothing matches, `{ ambiguous: n }` for several
 * matches. `inViewport` (asked only when wanted: it waits for the page's next intersection update, 250 ms
 * at most, then falls back to the element's box) is Playwright's toBeInViewport: some of it intersects the
 * viewport, clipping by scrolling ancestors included.
 */
export const readState = (locator: Locator, withViewport: boolean) =>
  // No named inner functions: the source runs in the page, where a bundler's name helpers do not exist.
  locator
    .evaluateAll(async (els, viewport) => {
      if (els.length !== 1) return els.length
      const el = els[0]!
      const element = el as HTMLElement & { disabled?: boolean; readOnly?: boolean; checked?: boolean; indeterminate?: boolean }
      const disabled = element.disabled === true || element.closest("fieldset:disabled") !== null || element.getAttribute("aria-disabled") === "true"
      const ariaChecked = element.getAttribute("aria-checked")
      const checked =
        typeof element.checked === "boolean" && element.tagName === "INPUT"
          ? element.checked
          : ariaChecked === "true"
            ? true
            : ariaChecked === "false"
              ? false
              : undefined
      const visible =
        typeof element.checkVisibility === "function"
          ? element.checkVisibility({ checkOpacity: false, checkVisibilityCSS: true })
          : element.getClientRects().length > 0
      const editableTag = element.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(element.tagName)
      let inViewport = false
      if (viewport) {
        const box = element.getBoundingClientRect()
        const byBox = box.width > 0 && box.height > 0 && box.bottom > 0 && box.right > 0 && box.top < window.innerHeight && box.left < window.innerWidth
        inViewport = await new Promise<boolean>((resolve) => {
          const fallback = setTimeout(() => (observer.disconnect(), resolve(byBox)), 250)
          const observer = new IntersectionObserver((entries) => {
            clearTimeout(fallback)
            observer.disconnect()
            resolve(entries.some((e) => e.isIntersecting && e.intersectionRatio > 0))
          })
          observer.observe(element)
        })
      }
      return {
        visible,
        hidden: !visible,
        enabled: !disabled,
        disabled,
        checked: checked ?? false,
        focused: element.ownerDocument.activeElement === element,
        editable: editableTag && !disabled && element.readOnly !== true && element.getAttribute("aria-readonly") !== "true",
        empty:
          element.tagName === "INPUT" || element.tagName === "TEXTAREA"
            ? (element as HTMLInputElement).value === ""
            : (element.textContent ?? "").trim() === "",
        inViewport,
        attached: true
      }
    }, withViewport)
    .then((state) => (state === 0 ? undefined : typeof state === "number" ? ({ ambiguous: state } as const) : (state as ElementState)))

/**
 * How many elements match and how many of the first 20 are visible, in one evaluation (what
 * Playwright's isVisible checks: a visible style and a non-empty box; `display: contents` by its children).
 */
export const readVisibility = (locator: Locator) =>
  // No named inner functions: the source runs in the page, where a bundler's name helpers do not exist.
  locator.evaluateAll((els) => {
    let shown = 0
    for (const el of els.slice(0, 20)) {
      const stack: Array<Node> = [el]
      let visible = false
      while (stack.length > 0 && !visible) {
        const node = stack.pop()!
        if (node.nodeType === 3) {
          if ((node.textContent ?? "").trim() === "") continue
          const range = node.ownerDocument!.createRange()
          range.selectNode(node)
          const box = range.getBoundingClientRect()
          visible = box.width > 0 && box.height > 0
          continue
        }
        if (node.nodeType !== 1) continue
        const element = node as Element
        const style = element.ownerDocument.defaultView?.getComputedStyle(element)
        if (style === undefined) {
          visible = true
        } else if (style.display === "contents") {
          stack.push(...Array.from(element.childNodes))
        } else if ((typeof element.checkVisibility !== "function" || element.checkVisibility()) && style.visibility === "visible") {
          const box = element.getBoundingClientRect()
          visible = box.width > 0 && box.height > 0
        }
      }
      if (visible) shown++
    }
    return { count: els.length, shown }
  })
