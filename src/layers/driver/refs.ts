/**
 * Refs belong to a surface. Playwright numbers refs per page (`e5`, and `f2e3` inside that page's frames), so
 * two pages can both have an `e5`: the driver writes a view's or guest's refs with its id in front (`v1e5`,
 * `v1f2e3`), while a window's stay as Playwright writes them. A ref therefore says which page it is of, and
 * one used in another surface is refused with both named instead of clicking whatever has that number there.
 * A snapshot that contains iframes says which frame surface each is, or that one was not entered.
 */
import type { Locator, Page, Frame } from "playwright-core"
import { RefStale } from "./errors.js"
import type { AppSession } from "./session.js"
import type { Surface } from "./surface.js"

/** Writes a surface's prefix in front of Playwright's refs of a snapshot (refs already prefixed are left as they are). */
export const prefixRefs = (prefix: string, text: string): string =>
  prefix === "" ? text : text.replace(/\[ref=((?:f\d+)?e\d+)\]/g, (_m, ref: string) => `[ref=${prefix}${ref}]`)

/** Playwright's ref for a ref as shown in `entry` (its prefix removed). */
export const playwrightRef = (entry: Surface, ref: string): string =>
  entry.refPrefix !== "" && ref.startsWith(entry.refPrefix) ? ref.slice(entry.refPrefix.length) : ref

/** The locator of a ref of `entry`'s latest snapshot. */
export const refLocator = (entry: Surface, ref: string): Locator => entry.scope.locator(`aria-ref=${playwrightRef(entry, ref)}`)

const describe = (entry: Surface) => {
  const parent = entry.parentId !== undefined ? ` in ${entry.parentId}` : ""
  const at = entry.closed ? "closed" : entry.url().split("?")[0]!.split("/").pop() || entry.url()
  return `${entry.kind} ${entry.id}${parent} (${at})`
}

/** The answer to a ref that is not in `entry`'s latest snapshot: which surface it is of, when another one has it. */
export const refNotHere = (s: AppSession | undefined, entry: Surface, ref: string): RefStale => {
  const owners = s === undefined ? [] : s.surfaces.filter((other) => other !== entry && other.refs.has(ref))
  const prefix = /^([vg]\d+)/.exec(ref)?.[1]
  const named = owners[0] ?? (prefix !== undefined && s !== undefined ? s.surface(prefix) : undefined)
  if (named !== undefined && named !== entry) {
    return new RefStale({
      message: `${ref} is a ref of ${describe(named)}, not of ${describe(entry)}, the surface this call acts in`,
      hint: `To act on it, select its surface first (electron_select_window window=${named.id}); for refs of ${entry.id}, take electron_snapshot there.`,
      details: { ref, surface: named.id, target: entry.id }
    })
  }
  return new RefStale({
    message:
      entry.latestSnapshot === undefined
        ? `${ref} is a ref, but ${entry.kind} ${entry.id} has no snapshot yet`
        : `${ref} is not in the latest snapshot of ${entry.kind} ${entry.id}`
  })
}

const FRAME_LINE = /^(\s*)- iframe\b.*?\[ref=((?:f\d+)?e\d+)\]/

/**
 * Says after each iframe of a snapshot which frame surface it is (`(frame fr2)`), and where Playwright could
 * not enter it (no lines inside) how to snapshot it on its own. Needs the session's frame registry.
 */
export const annotateFrames = async (s: AppSession | undefined, entry: Surface, text: string): Promise<string> => {
  const page = s?.windowOf(entry.page)
  if (s === undefined || page === undefined || !/^[ \t]*- iframe\b/m.test(text)) return text
  const lines = text.split("\n")
  for (let i = 0; i < lines.length; i++) {
    const match = FRAME_LINE.exec(lines[i]!)
    if (match === null) continue
    const frame = await frameOfRef(entry.scope, match[2]!)
    const surface = frame === undefined ? undefined : s.frameEntry(page, frame)
    if (surface === undefined) continue
    const indent = match[1]!.length
    const next = lines[i + 1]
    const entered = next !== undefined && next.length - next.trimStart().length > indent
    const note = entered ? ` (frame ${surface.id})` : ` (frame ${surface.id}, not entered: electron_select_window window=${surface.id} to snapshot it)`
    const line = lines[i]!
    lines[i] = line.endsWith(":") ? `${line.slice(0, -1)}${note}:` : `${line}${note}`
  }
  return lines.join("\n")
}

const frameOfRef = async (scope: Page | Frame, ref: string): Promise<Frame | undefined> => {
  const handle = await scope
    .locator(`aria-ref=${ref}`)
    .elementHandle({ timeout: 1_000 })
    .catch(() => null)
  if (handle === null) return undefined
  try {
    return (await handle.contentFrame()) ?? undefined
  } catch {
    return undefined
  } finally {
    await handle.dispose().catch(() => undefined)
  }
}
