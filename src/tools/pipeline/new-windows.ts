/**
 * Windows opened or closed since the previous answer, told in the answer of the call that saw them come (as new
 * errors are, ./new-errors.ts): a click that opens a Settings window answers `Windows: opened w2 "Settings".`, one
 * whose window closes itself answers `Windows: closed w2; the active window is w1.` An agent with no windows tool
 * in its profile still learns where its next calls can go. A window opened after its action answered is told by the
 * next call. The launch and attach answers list the windows there are: what is told starts from them.
 */
import { Effect } from "effect"
import { NOT_RESPONDING, sessionLocal, Windows, type AppSession, type Surface } from "../../layers/driver/ElectronDriver.js"
import { amended } from "../contract/respond.js"
import type { ToolResult } from "../contract/Tool.js"

const openWindows = (s: AppSession): ReadonlyArray<Surface> => s.windows.filter((w) => w.kind === "window" && !w.closed)

/** The windows the session's answers have told of (at first use: those open then). */
const told = sessionLocal("told-windows", (s) => ({ ids: new Set(openWindows(s).map((w) => w.id)) }))

/**
 * Marks windows as told: all of them as they are now (a launch, attach or windows answer lists them), or only the
 * named ones (an answer that names the window it ended in, or one that closed under it: a wait handed over).
 */
export const windowsTold = (s: AppSession, ids?: ReadonlyArray<string>): void => {
  const known = told.of(s)
  const open = openWindows(s)
  if (ids === undefined) {
    known.ids = new Set(open.map((w) => w.id))
    return
  }
  for (const id of ids) {
    if (open.some((w) => w.id === id)) known.ids.add(id)
    else known.ids.delete(id)
  }
}

/** How long a new window's title may take before it is told by its URL instead (a page still loading on a busy machine). */
const TITLE_MS = 2_000

/** A result with the windows opened or closed since the last answer after its text (none: the result as it is). */
export const resultWithNewWindows = (session: AppSession | undefined, result: ToolResult): Effect.Effect<ToolResult, never, Windows> => {
  if (session === undefined || session.exit !== undefined) return Effect.succeed(result)
  const known = told.of(session)
  const open = openWindows(session)
  // A modal window listed as a row of this answer names its page there.
  const rows = (result.structured?.["modals"] as ReadonlyArray<{ readonly page?: string }> | undefined) ?? []
  for (const row of rows) if (row.page !== undefined && open.some((w) => w.id === row.page)) known.ids.add(row.page)
  const opened = open.filter((w) => !known.ids.has(w.id))
  const closed = [...known.ids].filter((id) => !open.some((w) => w.id === id))
  if (opened.length === 0 && closed.length === 0) return Effect.succeed(result)
  known.ids = new Set(open.map((w) => w.id))
  return Effect.gen(function* () {
    const windows = yield* Windows
    const titles = yield* Effect.forEach(opened, (w) => windows.title(w, TITLE_MS), { concurrency: "unbounded" })
    const active = session.activeId
    const named = (w: Surface, i: number) => (titles[i] === NOT_RESPONDING ? w.shownUrl() : JSON.stringify(titles[i]))
    const parts = [
      ...opened.map((w, i) => `opened ${w.id} ${named(w, i)}${w.id === active ? " (active)" : ""}`),
      ...(closed.length > 0 ? [`closed ${closed.join(", ")}`] : [])
    ]
    const where = closed.length > 0 && active !== undefined && !opened.some((w) => w.id === active) ? `; the active window is ${active}` : ""
    return amended(result, {
      after: `\nWindows: ${parts.join("; ")}${where}.`,
      structured: { windowsChanged: { opened: opened.map((w, i) => ({ id: w.id, title: titles[i] })), closed, active: active ?? null } }
    })
  })
}
