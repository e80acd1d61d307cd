/**
 * native: the OS-facing parts of an Electron app that a test cannot reach through a window: tray menus,
 * notifications, shell calls (recorded, never run), power, auto-updater and app events emitted as the OS
 * would. The recorders are a main-process hook, installed only while this plugin is loaded.
 */
import { definePlugin } from "../Plugin.js"
import { appEvent, power, shell, updater } from "./events.js"
import { nativeRecorders } from "./hooks.js"
import { notifications, tray } from "./tray.js"

export default definePlugin({
  name: "native",
  purpose: "Tray menus, notifications, recorded shell calls, and power, auto-updater and app events emitted to the app.",
  stagewright: ">=0.1.0 <1",
  mainHooks: [nativeRecorders],
  tools: [tray, notifications, shell, power, updater, appEvent]
})
