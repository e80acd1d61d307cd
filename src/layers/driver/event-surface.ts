/**
 * Which surface a console message or page error came from. playwright-core reports both on the page, with
 * the URL of the script that logged or threw: a script of one frame's own document, or (when the page and
 * its frames differ in origin) of one frame's origin, names that frame at once. Otherwise (same-origin
 * frames loading scripts of one folder) each frame is asked, once per script URL, whether its document
 * loaded that script; the entry is given the frame when the answer comes (the page's id until then).
 */
import { pageFunction } from "./selectors.js"
import type { Surface } from "./surface.js"

const originOf = (url: string): string | undefined => {
  try {
    const parsed = new URL(url)
    return parsed.protocol === "file:" ? "file:" : parsed.origin
  } catch {
    return undefined
  }
}

/**
 * The URL of the first script a stack names (`https://…` or `file://…` before `:line:col`). It starts a word (after a
 * space or "("), so an app's long message is scanned once, not again from each "://" in it.
 */
export const scriptOfStack = (stack: string | undefined): string | undefined =>
  stack === undefined ? undefined : /(?<![^\s(])(?:https?|file):\/\/[^\s)]+?(?=:\d+:\d+)/.exec(stack)?.[0]

/** Whether the frame's document has a script element with this URL. Runs in the frame. */
const loaded = pageFunction((url: string): boolean => Array.from(document.scripts).some((s) => s.src === url))

/**
 * A resolver for `page`'s events: `(scriptUrl, assign)` calls `assign(frameId)` when the script is a
 * frame's (at once or later), never for the page's own scripts.
 */
export const scriptSurface = (page: Surface, frames: () => ReadonlyArray<Surface>) => {
  const known = new Map<string, string | undefined>()
  return (url: string | undefined, assign: (surface: string) => void): void => {
    if (url === undefined || url === "" || page.page.isClosed()) return
    const open = frames()
    if (open.length === 0) return
    if (known.has(url)) {
      const id = known.get(url)
      if (id !== undefined) assign(id)
      return
    }
    const own = open.find((f) => f.url() === url)
    const origin = originOf(url)
    const byOrigin = origin !== undefined && origin !== originOf(page.page.url()) ? open.filter((f) => originOf(f.url()) === origin) : []
    const direct = own ?? (byOrigin.length === 1 ? byOrigin[0] : undefined)
    if (direct !== undefined) {
      known.set(url, direct.id)
      assign(direct.id)
      return
    }
    if (origin !== undefined && origin !== originOf(page.page.url())) return
    // Same origin as the page: ask the page and each frame (a rejected evaluation answers "no").
    known.set(url, undefined)
    const asked = [page, ...open].map((f) =>
      f.scope.evaluate(loaded, url).then(
        (yes) => (yes ? f : undefined),
        () => undefined
      )
    )
    void Promise.all(asked).then((answers) => {
      const frame = answers.find((f) => f !== undefined)
      if (frame === undefined || frame === page) return
      known.set(url, frame.id)
      assign(frame.id)
    })
  }
}
