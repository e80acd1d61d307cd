/**
 * Picking the window whose page a storage tool reads: by window id, by origin, or the active one.
 */
import { Effect, Schema } from "effect"
import { type Surface } from "../../layers/driver/ElectronDriver.js"
import { InvalidArgument } from "../../tools/contract/errors.js"
import { WindowId } from "../../tools/contract/shapes.js"
import { callHandle } from "../../tools/contract/handle.js"

export const Origin = Schema.optional(Schema.String).annotations({ description: "origin (https://host:port, file://), default the window's" })
export const OptionalWindow = Schema.optional(WindowId).annotations({ description: "window id (w1), default the active window" })

/** A page URL's storage origin: `file://` for files (URL gives "null"), else scheme://host:port. */
export const originOf = (url: string): string => {
  try {
    const parsed = new URL(url)
    return parsed.protocol === "file:" ? "file://" : parsed.origin
  } catch {
    return url
  }
}

const normalize = (origin: string) => (origin.startsWith("file:") ? "file://" : originOf(origin.replace(/\/+$/, "")))

/** The window to run in: `window`, else the first open window of `origin`, else the active window. */
export const pageFor = (input: { readonly window?: string | undefined; readonly origin?: string | undefined }) =>
  Effect.gen(function* () {
    const call = yield* callHandle
    if (input.window !== undefined || input.origin === undefined) {
      const entry = yield* call.surface(input.window)
      const origin = originOf(entry.page.url())
      if (input.origin !== undefined && normalize(input.origin) !== origin) {
        return yield* new InvalidArgument({
          message: `origin: window ${entry.id} shows ${origin}, not ${normalize(input.origin)}`,
          hint: "Give only origin (a window of that origin is picked) or only window."
        })
      }
      return { entry, origin }
    }
    const wanted = normalize(input.origin)
    const session = yield* call.session
    const open = session.windows.filter((w) => !w.page.isClosed())
    const entry: Surface | undefined = open.find((w) => originOf(w.page.url()) === wanted)
    if (entry === undefined) {
      const origins = [...new Set(open.map((w) => `${w.id} ${originOf(w.page.url())}`))]
      return yield* new InvalidArgument({
        message: `origin: no open window shows ${wanted} (storage is read from a page of that origin)`,
        hint: `Open windows: ${origins.join(", ") || "none"}. Navigate one there with electron_navigate first.`
      })
    }
    return { entry, origin: wanted }
  })
