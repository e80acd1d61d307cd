/**
 * The main-process read every action's answer makes (readHeld, ./main-modals.ts), installed once per app process
 * beside the held dialogs, so that a read sends a call of a few characters, not readHeld's whole source (~2.5 KB
 * to serialize, send and compile on every action: ~0.15 ms of the read's ~1.9 ms on the stand-in).
 */
import { installHeldDialogs, readHeld } from "./main-modals.js"
import { mainSource } from "./selectors.js"

/** Where the main process keeps the installed read. */
const INSTALLED = "__stagewrightReadHeld"

/** Main-process source: installs the held dialogs (installHeldDialogs, given the hold in ms), then the read. */
export const installHeldSource = (): string =>
  `(electron, holdMs) => { (${mainSource(installHeldDialogs)})(electron, holdMs); globalThis.${INSTALLED} = ${mainSource(readHeld)} }`

/** Main-process source: the installed read with its argument, or null where it is not installed (the driver then sends readHeld). */
export const READ_INSTALLED = `(electron, arg) => { const read = globalThis.${INSTALLED}; return typeof read === "function" ? read(electron, arg) : null }`
