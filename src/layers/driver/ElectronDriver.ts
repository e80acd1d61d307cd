/**
 * The driver room's public face. The driver is six services over one shared session store, each owning
 * one part of driving an Electron app (tools ask for the ones they use):
 *
 * - AppLifecycle: launch (playwright-core's `_electron`, or over CDP), attach, close, the current session;
 * - Windows: the windows, the active one, finding, selecting and waiting for one (the dialog gate);
 * - Snapshots: aria snapshots, their refs, resolving targets, page changes;
 * - MainProcess: code in the main process, plugins' main-process hooks, main-process errors;
 * - Dialogs: the modal room: web dialogs (policy, queue, subscription), file choosers, held native dialogs, a popped-up menu;
 * - PageOps: playwright-core calls within the call's bounds, typed page operations, actions.
 *
 * `ElectronDriver.layer` provides all six (one session store between them). The session is a scoped
 * resource of AppLifecycle's layer: replacing or closing the app, or the server ending, ends its process.
 */
import { Layer } from "effect"
import { Dialogs } from "./Dialogs.js"
import { AppLifecycle } from "./Lifecycle.js"
import { MainProcess } from "./MainProcess.js"
import { PageOps } from "./PageOps.js"
import { SessionStore } from "./SessionStore.js"
import { Snapshots } from "./Snapshots.js"
import { Windows } from "./Windows.js"

/** The driver's services, as a tool's requirements name them. */
export type DriverServices = AppLifecycle | Windows | Snapshots | MainProcess | Dialogs | PageOps

const layer: Layer.Layer<DriverServices> = Layer.mergeAll(
  AppLifecycle.layer,
  Layer.provideMerge(Windows.layer, MainProcess.layer),
  Snapshots.layer,
  Dialogs.layer,
  PageOps.layer
).pipe(Layer.provide(SessionStore.layer))

/** The whole driver: its six services over one session store. */
export const ElectronDriver = { layer } as const

export { AppLifecycle, type AppLifecycleShape } from "./Lifecycle.js"
export { Windows, type WindowsShape } from "./Windows.js"
export { Snapshots, maskPasswordValues, PASSWORD_MASK, passwordValues, shownFieldValue, type SnapshotsShape } from "./Snapshots.js"
export { MainProcess, type MainProcessShape } from "./MainProcess.js"
export { Dialogs, type DialogsShape } from "./Dialogs.js"
export { spanned } from "./spans.js"
export { PageOps, type PageFunction, type PageOpsShape } from "./PageOps.js"
export type { MainCode } from "./SessionStore.js"
export { sessionLocal, type SessionLocal } from "./session-local.js"
export { clipText, MAX_TITLE_CHARS, MAX_URL_CHARS } from "./clip.js"
export {
  NOT_RESPONDING,
  titleOf,
  type AppSession,
  type AttachOptions,
  type DialogPolicy,
  type DialogSeen,
  type DialogType,
  type LaunchOptions,
  type PendingDialog,
  type RecordedStep,
  type Surface,
  type WindowEntry,
  type WindowInfo,
  type WindowSelector
} from "./session.js"
export { toFunction, expandSelector, shorthandOf, pageFunction, REF_PATTERN } from "./selectors.js"
export { shallow, shallowWithin } from "./shallow.js"
export { ifPlainField, isNotPlainField, isPlainField, PLAIN_FIELD_SELECTOR } from "./plain-field.js"
export { prefixRefs } from "./refs.js"
export type { SurfaceKind } from "./surface.js"
export type { FieldChange, PageChanges } from "./page-changes.js"
export type { Action, BrowserWindowHandle, Check, ElectronModule, MainError, MainHook, MainValue, SessionError } from "./shape.js"
export { attachableProcess } from "./debug-process.js"
export { ATTACHED_FACTS } from "./attach-main.js"
export { inspectableApps, type InspectableApp } from "./discovery-inspect.js"
export { ProcessProbe, type ProcessProbeShape } from "./process-facts.js"
export { discoverApps, probeDebugPort, untrustedText, whyNotDebuggable, type DebuggableApp, type Discovery } from "./discovery.js"
export { OVER_CDP_REASON } from "./fuses.js"
export { budgetMs, CallDeadline } from "./call-context.js"
export { MODAL_REF, type ControlAction, type ModalControl, type ModalKind, type ModalState } from "./modal-room.js"
export { ModalClaims } from "./modal-gate.js"
