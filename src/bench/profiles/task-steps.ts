/** Steps several task files share: a menu item by label path, and a result line of a definition list. */
import type { Agent } from "./agent.js"

/** Triggers a menu item by label path: menu_click, else eval in main (Menu.getApplicationMenu), else give up. */
export const clickMenu = async (agent: Agent, path: ReadonlyArray<string>, options: { readonly retry?: boolean } = {}): Promise<void> => {
  if (agent.has("electron_menu_click")) {
    await agent.must("electron_menu_click", { path }, options)
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

