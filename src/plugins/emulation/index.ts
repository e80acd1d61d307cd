/**
 * emulation: the theme, media features, zoom, time zone and locale the app sees. Each tool answers with
 * the value now in force as the app reads it (main process and pages), not an echo of the request.
 */
import { definePlugin } from "../Plugin.js"
import { locale, timezone, zoom } from "./environment.js"
import { media, theme } from "./media.js"

export default definePlugin({
  name: "emulation",
  purpose: "Theme, reduced motion and other media features, zoom, time zone and locale as the app sees them.",
  stagewright: ">=0.1.0 <1",
  tools: [theme, media, zoom, timezone, locale]
})
