/**
 * What a listing says of a surface besides its title and URL: its kind, the surface it is shown in, whether a
 * frame's origin differs from its parent's (a cross-origin frame: its own renderer under site isolation), and
 * what works in it.
 */
import type { AppSession } from "./session.js"
import type { SurfaceAbility, SurfaceKind, Surface } from "./surface.js"

export interface SurfaceFacts {
  readonly id: string
  readonly kind: SurfaceKind
  readonly parent?: string
  readonly crossOrigin?: boolean
  readonly works: ReadonlyArray<SurfaceAbility>
}

const originOf = (url: string): string => {
  try {
    const parsed = new URL(url)
    return parsed.protocol === "file:" ? "file:" : parsed.origin
  } catch {
    return url
  }
}

export const surfaceFacts = (s: AppSession, entry: Surface): SurfaceFacts => {
  const parent = entry.parentId === undefined ? undefined : s.surface(entry.parentId)
  const crossOrigin = entry.kind === "frame" && parent !== undefined && originOf(entry.url()) !== originOf(parent.url())
  const works: Array<SurfaceAbility> = ["snapshot", "interact", "eval"]
  if ((entry.kind === "window" || entry.kind === "view") && s.hasMainProcess) works.push("window-state")
  return {
    id: entry.id,
    kind: entry.kind,
    ...(entry.parentId !== undefined ? { parent: entry.parentId } : {}),
    ...(entry.kind === "frame" ? { crossOrigin } : {}),
    works
  }
}
