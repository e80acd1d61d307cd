/**
 * The named tool profiles: explicit lists of stable core tool names (never inferred from tool types).
 * The lists are the public contract of ../shared/design/TOOLS.md.
 */

export const PROFILE_NAMES = ["essential", "testing", "debug", "full"] as const
export type ProfileName = (typeof PROFILE_NAMES)[number]

/** Every core tool, by group, in the catalog's order. */
export const CORE_GROUPS = {
  app: ["electron_launch", "electron_attach", "electron_close", "electron_status", "electron_app_info", "electron_plugins"],
  windows: [
    "electron_windows",
    "electron_select_window",
    "electron_wait_for_window",
    "electron_window_state",
    "electron_window_bounds",
    "electron_window_close"
  ],
  navigation: ["electron_navigate", "electron_history", "electron_reload"],
  observe: [
    "electron_snapshot",
    "electron_screenshot",
    "electron_find",
    "electron_get_text",
    "electron_get_attribute",
    "electron_wait_for",
    "electron_wait_for_event"
  ],
  interact: [
    "electron_click",
    "electron_hover",
    "electron_fill",
    "electron_fill_form",
    "electron_type",
    "electron_press_key",
    "electron_select_option",
    "electron_check",
    "electron_drag",
    "electron_upload_file",
    "electron_scroll",
    "electron_web_dialog"
  ],
  assert: [
    "electron_expect_visible",
    "electron_expect_text",
    "electron_expect_value",
    "electron_expect_state",
    "electron_expect_count",
    "electron_expect_window"
  ],
  author: ["electron_generate_locator", "electron_export_test"],
  native: ["electron_menu", "electron_menu_click", "electron_dialog_stub", "electron_clipboard"],
  debug: ["electron_console", "electron_errors", "electron_requests", "electron_metrics", "electron_inspect", "electron_trace_start", "electron_trace_stop"]
} as const

export type CoreToolName = (typeof CORE_GROUPS)[keyof typeof CORE_GROUPS][number]

export const CORE_TOOL_NAMES: ReadonlyArray<CoreToolName> = Object.values(CORE_GROUPS).flat()

export const EVAL_TOOL_NAMES = ["electron_eval_renderer", "electron_eval_main"] as const

const ESSENTIAL: ReadonlyArray<CoreToolName> = [
  "electron_launch",
  "electron_close",
  "electron_status",
  "electron_plugins",
  "electron_windows",
  "electron_select_window",
  "electron_snapshot",
  "electron_screenshot",
  "electron_find",
  "electron_click",
  "electron_fill",
  "electron_fill_form",
  "electron_type",
  "electron_press_key",
  "electron_select_option",
  "electron_check",
  "electron_drag",
  "electron_wait_for",
  "electron_expect_visible",
  "electron_expect_text",
  "electron_expect_value",
  "electron_export_test"
]

const NOT_IN_TESTING: ReadonlyArray<CoreToolName> = ["electron_requests", "electron_metrics", "electron_inspect", "electron_trace_start", "electron_trace_stop"]

const DEBUG: ReadonlyArray<CoreToolName> = [
  ...CORE_GROUPS.app,
  ...CORE_GROUPS.windows,
  ...CORE_GROUPS.navigation,
  ...CORE_GROUPS.observe,
  "electron_click",
  "electron_fill",
  "electron_type",
  "electron_press_key",
  ...CORE_GROUPS.debug
]

/** Profile name -> the core tools it holds. */
export const PROFILES: Readonly<Record<ProfileName, ReadonlySet<CoreToolName>>> = {
  essential: new Set(ESSENTIAL),
  testing: new Set(CORE_TOOL_NAMES.filter((name) => !NOT_IN_TESTING.includes(name))),
  debug: new Set(DEBUG),
  full: new Set(CORE_TOOL_NAMES)
}

/**
 * The default, decided by the record's rule (ADR 0001 amendment A5): on 70 tasks, 5 runs a cell, essential solved
 * 350/350 and full 349/350 (lower bound of the ratio 96.3%, of the eager saving 33%). Hosts that load schemas on
 * demand are better served by `--tool-profile full` (README).
 */
export const DEFAULT_PROFILE: ProfileName = "essential"

/** The profiles that hold a tool, smallest first (the first one is the restart hint). */
export const profilesHolding = (tool: string): ReadonlyArray<ProfileName> =>
  PROFILE_NAMES.filter((profile) => PROFILES[profile].has(tool as CoreToolName)).sort((a, b) => PROFILES[a].size - PROFILES[b].size)

export const isCoreToolName = (name: string): name is CoreToolName => (CORE_TOOL_NAMES as ReadonlyArray<string>).includes(name)
