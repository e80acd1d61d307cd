/** Steps several task files share: a menu item by label path, and a result line of a definition list. */
import { GiveUp, type Agent } from "./agent.js"

/** Clicks a menu item by label path: electron_menu_click, else the snapshot's menubar refs, else eval in main. */
export const clickMenu = async (agent: Agent, path: ReadonlyArray<string>, options: { readonly retry?: boolean } = {}): Promise<void> => {
  if (agent.has("electron_menu_click")) {
    await agent.must("electron_menu_click", { path }, options)
    return
  }
  // The snapshot's menubar row: click the top-level menu's ref, then each level's item by its ref.
  const row = (await agent.must("electron_snapshot", { depth: 0 }).catch(() => "")).split("\n").find((line) => line.startsWith("- menubar:"))
  if (row !== undefined) {
    const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
    let listing = row
    for (const [i, label] of path.entries()) {
      const ref = (i === 0 ? new RegExp(`(?:: | · )${escape(label)} \\[ref=(m\\d+)\\]`) : new RegExp(`"${escape(label)}"(?: \\[\\w+\\])* \\[ref=(m\\d+)\\]`)).exec(listing)?.[1]
      if (ref === undefined) throw new GiveUp(`no menu item ${path.slice(0, i + 1).join(" > ")} in the menubar`)
      listing = await agent.must("electron_click", { target: ref }, i === path.length - 1 ? options : {})
    }
    return
  }
  await agent.evalFallback(
    "electron_menu_click",
    "main",
    `({ Menu }, path) => { let items = Menu.getApplicationMenu().items; let item; for (const label of path) { item = items.find((i) => i.label === label); if (!item) throw new Error('no menu item ' + label); items = item.submenu ? item.submenu.items : []; } item.click(); return path.join(' > ') }`,
    path
  )
}

/** The definition that follows a term ("Dialog", "Ping", ...) in the results list of a region. */
export const resultAfter = async (agent: Agent, region: string, term: string): Promise<string | undefined> => {
  const nodes = await agent.snapshotOf("region", region)
  const i = nodes.findIndex((n) => n.role === "term" && n.text === term)
  return i < 0 ? undefined : nodes.slice(i + 1).find((n) => n.role === "definition")?.text
}

