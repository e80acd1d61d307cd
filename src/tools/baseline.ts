/**
 * The baseline of `electron_snapshot since:"last"`: per window, the last full snapshot the agent was
 * shown (a full snapshot or an incremental one, which brings the agent up to the same state). The
 * driver's own latest snapshot moves with every action's change summary and every ref refresh, which
 * the agent never saw in full, so it cannot be the baseline.
 *
 * Keyed weakly by the driver's window entry: it goes with its window and its session.
 */
import type { WindowEntry } from "../layers/ElectronDriver.js"

const shown = new WeakMap<WindowEntry, string>()

export const shownSnapshot = (entry: WindowEntry): string | undefined => shown.get(entry)

export const markShown = (entry: WindowEntry, snapshot: string): void => {
  shown.set(entry, snapshot)
}
