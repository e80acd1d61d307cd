/**
 * Elements to refs: a page function marks the elements it reports with `data-sw-mark="<i>"`; each
 * marked element's own AI-mode aria snapshot names its role, name and ref (Playwright keeps an element's
 * ref across snapshots), and one full snapshot afterwards records those refs as the window's valid ones.
 * A ref that the full snapshot does not hold (an element outside the accessibility tree) is dropped.
 */
import { Effect } from "effect"
import { type Surface } from "../../layers/driver/ElectronDriver.js"
import { callHandle } from "../../tools/contract/handle.js"
export { pageFunction } from "../../layers/driver/ElectronDriver.js"

export const MARK = "data-sw-mark"

export interface Described {
  readonly role?: string | undefined
  readonly name?: string | undefined
  readonly ref?: string | undefined
}

const parseLine = (text: string): Described => {
  const first = text.split("\n")[0] ?? ""
  const match = /^- ([\w-]+)(?: "((?:[^"\\]|\\.)*)")?.*?(?:\[ref=(e\d+)\])?/.exec(first)
  const ref = /\[ref=(e\d+)\]/.exec(first)?.[1]
  return { role: match?.[1], name: match?.[2], ref }
}

/** Role, name and ref of the elements marked 0..count-1 (in that order); removes the marks. */
export const describeMarked = (entry: Surface, count: number) =>
  Effect.gen(function* () {
    const call = yield* callHandle
    const lines = yield* Effect.forEach(
      Array.from({ length: count }, (_, i) => i),
      (i) =>
        call
          .run("describe an element", () => entry.page.locator(`[${MARK}="${i}"]`).first().ariaSnapshot({ mode: "ai", depth: 0, timeout: 2_000 }))
          .pipe(Effect.orElseSucceed(() => ""))
    )
    yield* call
      .evaluate(entry, "clear marks", (attr: string) => document.querySelectorAll(`[${attr}]`).forEach((el) => el.removeAttribute(attr)), MARK)
      .pipe(Effect.ignore)
    if (count > 0) yield* call.snapshot(entry).pipe(Effect.ignore)
    return lines.map((line): Described => {
      const d = parseLine(line)
      return d.ref !== undefined && !entry.refs.has(d.ref) ? { role: d.role, name: d.name } : d
    })
  })

/** `role "name" [e12]`, as an agent reads it. */
export const label = (d: Described, fallback: string): string =>
  d.role === undefined ? fallback : `${d.role}${d.name ? ` "${d.name}"` : ""}${d.ref ? ` [${d.ref}]` : ""}`
