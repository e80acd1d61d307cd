/**
 * The production plugin: checks a build the way a release engineer does. From outside: find the newest
 * packaged build, read its fuses, verify its asar and its release signatures (code signing, notarization,
 * Authenticode, AppImage) and update feed, launch it. From the running app's main process: each
 * window's webPreferences, CSP, navigation / window-open / permission handlers, shell.openExternal use,
 * remote content and DevTools. The report ties each finding to Electron's security checklist.
 */
import { definePlugin } from "../Plugin.js"
import { productionRecorder } from "./inapp.js"
import { audit, report } from "./tools-app.js"
import { asar, findBuild, fuses, launchBuild } from "./tools-build.js"

export const PRODUCTION_HOOK = { name: "production-recorder", install: productionRecorder }

export default definePlugin({
  name: "production",
  purpose: "Check a packaged build like a release engineer: fuses, asar integrity, signatures, update feed, webPreferences, CSP, handlers, a security report",
  stagewright: ">=0.1.0 <1",
  mainHooks: [PRODUCTION_HOOK],
  tools: [findBuild, fuses, asar, audit, launchBuild, report]
})
