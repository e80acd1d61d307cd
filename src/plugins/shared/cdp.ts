/**
 * Per-window DevTools settings that must hold in every window, new ones too, for the plugins that set
 * them (network conditions, emulated media and timezone; each under its own key): each window gets one CDP
 * session, kept open for the window's life (closing it would drop what it set), and a new window gets every
 * setting applied so far. The state is the session's own (sessionLocal): it goes with the session.
 */
import type { CDPSession, Page } from "playwright-core"
import { sessionLocal, type AppSession } from "../../layers/driver/ElectronDriver.js"

type Apply = (cdp: CDPSession) => Promise<unknown>

interface PageSettings {
  readonly sessions: WeakMap<Page, Promise<CDPSession>>
  readonly settings: Map<string, Apply>
}

const cdpOf = (session: AppSession, state: PageSettings, page: Page): Promise<CDPSession> => {
  let cdp = state.sessions.get(page)
  if (cdp === undefined) {
    cdp = session.context.newCDPSession(page)
    state.sessions.set(page, cdp)
    cdp.catch(() => state.sessions.delete(page))
  }
  return cdp
}

const pageSettings = sessionLocal<PageSettings>("shared/page-settings", (session) => {
  const state: PageSettings = { sessions: new WeakMap(), settings: new Map() }
  const applyAll = (page: Page) => {
    if (state.settings.size === 0 || page.isClosed()) return
    void cdpOf(session, state, page)
      .then((cdp) => Promise.all([...state.settings.values()].map((apply) => apply(cdp).catch(() => undefined))))
      .catch(() => undefined)
  }
  // A window's first document (and any later cross-site one) may get another renderer, which starts
  // from the defaults: apply at once and again at each load of its main frame.
  session.context.on("page", (page) => {
    applyAll(page)
    page.on("load", () => applyAll(page))
  })
  return state
})
const stateOf = pageSettings.of

/**
 * Applies a setting (by key: a later one replaces it) in every open window now and in each new window;
 * `apply` undefined forgets the setting after `now` ran once in the open windows.
 */
export const applyInEveryWindow = async (session: AppSession, key: string, now: Apply, keep: boolean): Promise<void> => {
  const state = stateOf(session)
  if (keep) state.settings.set(key, now)
  else state.settings.delete(key)
  const pages = session.windows.map((w) => w.page).filter((p) => !p.isClosed())
  await Promise.all(pages.map(async (page) => now(await cdpOf(session, state, page))))
}
