/**
 * The a11y plugin: an axe-core audit with refs and fix hints, the tab order with focus-trap detection,
 * the focused element, and WCAG colour contrast.
 */
import { definePlugin } from "../Plugin.js"
import { auditTool } from "./audit.js"
import { contrastTool } from "./contrast.js"
import { focusTool, tabOrderTool } from "./keyboard.js"

export default definePlugin({
  name: "a11y",
  purpose: "Accessibility checks: axe-core audit with refs, tab order and focus traps, focused element, colour contrast",
  stagewright: ">=0.1.0 <1",
  tools: [auditTool, tabOrderTool, focusTool, contrastTool]
})
