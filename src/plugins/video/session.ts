/**
 * Recording a whole app session: every page it has (windows, views, guests) and every page it opens
 * later, each its own file named after the session and the surface (video-app-w1-<time>.webm). A page's
 * recording stops when it closes or its renderer crashes; all of them when the app ends.
 */
import { randomBytes } from "node:crypto"
import type { Page } from "playwright-core"
import { outputPath, timestampedName } from "../../layers/config/paths.js"
import type { AppSession } from "../../layers/driver/ElectronDriver.js"
import { probe } from "./encoder.js"
import { keepFinished, type VideoSettings, type VideoState } from "./state.js"
import { SurfaceRecording } from "./surface.js"

export interface Started {
  readonly surfaces: ReadonlyArray<string>
  /** Why nothing was started (the session ended, no output folder). */
  readonly problem?: string
  /** Set when there is no ffmpeg: why, and that an animated PNG is recorded instead. */
  readonly fallback?: string
}

/** A session's recorder: the pages being recorded (a page is never recorded twice) and how a new page starts. */
interface SessionRecorder {
  readonly pages: Map<Page, SurfaceRecording>
  /** Starts a page opened while the session is recorded (undefined while it is not). */
  startPage: ((page: Page) => Promise<string | undefined>) | undefined
}

const recorders = new WeakMap<AppSession, SessionRecorder>()

const stamp = () => timestampedName("", "").replace(/^-/, "")

/**
 * Starts recording `session` (named `name`), every page it has and will open. Already recorded pages are
 * left as they are. Without ffmpeg each page is recorded as an animated PNG (`fallback` says why).
 */
export const recordSession = async (session: AppSession, name: string, state: VideoState, settings: VideoSettings, outputDir: string): Promise<Started> => {
  const encoder = await probe(settings.ffmpeg)
  const ffmpeg = encoder.ok ? encoder.path : undefined
  const fallback = encoder.ok ? undefined : `no ffmpeg (${encoder.reason}): an animated PNG instead of WebM`
  state.unavailable = fallback
  if (session.exit !== undefined || session.closing) return { surfaces: [], problem: `the app session ${name} has ended` }
  const when = stamp()
  const base = (surface: string) => outputPath(outputDir, `video-${name}-${surface}-${when}`, "")
  const probeBase = base("w1")
  if (typeof probeBase !== "string") return { surfaces: [], problem: `${probeBase.message}. ${probeBase.hint}` }
  let recorder = recorders.get(session)
  if (recorder === undefined) {
    const mine: SessionRecorder = { pages: new Map(), startPage: undefined }
    recorders.set(session, (recorder = mine))
    const stopAll = (why: string) => () => {
      mine.startPage = undefined
      void Promise.all([...mine.pages.values()].map((r) => r.stop(why)))
    }
    session.context.on("page", (page) => void mine.startPage?.(page))
    session.context.on("close", stopAll("the app ended"))
    session.electronApp?.on("close", stopAll("the app ended"))
    session.browser?.on("disconnected", stopAll("the app ended"))
  }
  const map = recorder.pages
  let seq = 0
  const startPage = async (page: Page): Promise<string | undefined> => {
    if (map.has(page) || page.isClosed()) return undefined
    const cdp = await session.context.newCDPSession(page).catch(() => undefined)
    if (cdp === undefined || map.has(page)) return undefined
    const fallback = `page${++seq}`
    // The driver names a page once it is classified; the name is kept once known (a closed page has none).
    let known: string | undefined
    const surface = () => (known = session.windowOf(page)?.id ?? known) ?? fallback
    const recording: SurfaceRecording = new SurfaceRecording({
      page,
      cdp,
      surface,
      session: name,
      owner: session,
      settings,
      ffmpeg,
      base: (s) => {
        const path = base(s)
        return typeof path === "string" ? path : `${probeBase}-${s}`
      },
      part: `${probeBase}-${randomBytes(4).toString("hex")}.part.webm`,
      timeline: state.timeline,
      ended: () => void (map.get(page) === recording && map.delete(page)),
      finished: (file) => {
        state.running.delete(recording)
        if (file !== undefined) keepFinished(state, file)
      }
    })
    map.set(page, recording)
    state.running.add(recording)
    const ending = () => session.closing || session.exit !== undefined
    page.on("close", () => void recording.stop(ending() ? "the app ended" : "the window closed"))
    page.on("crash", () => void recording.stop("the renderer crashed"))
    const started = await recording.start().then(
      () => true,
      () => false
    )
    if (!started) {
      state.running.delete(recording)
      await recording.stop("the screencast did not start")
      return undefined
    }
    return surface()
  }
  recorder.startPage = startPage
  const surfaces = await Promise.all(session.windows.map((w) => startPage(w.page)))
  return { surfaces: surfaces.filter((s): s is string => s !== undefined), ...(fallback !== undefined ? { fallback } : {}) }
}

/** Stops every recording of `session` (all when undefined), each file complete; the finished files, and why any has none. */
export const stopRecordings = async (state: VideoState, why: string, session?: AppSession) => {
  if (session !== undefined) {
    const recorder = recorders.get(session)
    if (recorder !== undefined) recorder.startPage = undefined
  }
  const chosen = [...state.running].filter((r) => session === undefined || r.owner === session)
  const files = await Promise.all(chosen.map((r) => r.stop(why)))
  for (const r of chosen) state.running.delete(r)
  return {
    files: files.filter((f) => f !== undefined),
    problems: chosen.flatMap((r) => (r.failure === undefined ? [] : [`${r.surface()} (${r.session}): ${r.failure}`]))
  }
}

/** Whether `session` is being recorded (its new pages too). */
export const isRecording = (session: AppSession): boolean => recorders.get(session)?.startPage !== undefined
