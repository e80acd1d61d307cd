/**
 * Name resolution: near-miss suggestions for a name that is no tool, and the name order of tools/list.
 */

export const byName = (a: { readonly name: string }, b: { readonly name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)

/** Levenshtein distance, for near-miss suggestions. */
const distance = (a: string, b: string): number => {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const temp = row[j]!
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1))
      previous = temp
    }
  }
  return row[b.length]!
}

export const nearMisses = (name: string, candidates: ReadonlyArray<string>, max = 3): ReadonlyArray<string> => {
  const bare = name.replace(/^electron_/, "")
  return candidates
    .map((candidate) => {
      const other = candidate.replace(/^electron_/, "")
      const d = distance(bare, other)
      const contains = other.includes(bare) || bare.includes(other)
      return { candidate, score: contains ? Math.min(d, 1) : d }
    })
    .filter(({ score, candidate }) => score <= Math.max(2, Math.floor(candidate.length / 4)))
    .sort((a, b) => a.score - b.score || byName({ name: a.candidate }, { name: b.candidate }))
    .slice(0, max)
    .map(({ candidate }) => candidate)
}
