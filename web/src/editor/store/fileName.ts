//! File names for Save as: what the save route accepts (a name, never a path), and a suggestion
//! made from the workflow's name — which Save as offers to set while it is still the default.

/** The name a new, empty workflow starts with. */
export const UNTITLED = 'Untitled workflow'

/** A workflow still called what "New workflow" called it (or nothing): Save as offers to name it. */
export function isUntitled(name: string | undefined): boolean {
  return name === undefined || name.trim() === '' || name === UNTITLED
}

const STEM = /^[A-Za-z0-9][A-Za-z0-9._ -]{0,99}$/
export const SUFFIX = '.vai-workflow.json'

/** The stem of `name` (`My flow.vai-workflow.json` → `My flow`). */
export function stemOf(name: string): string {
  const trimmed = name.trim()
  return trimmed.endsWith(SUFFIX) ? trimmed.slice(0, -SUFFIX.length) : trimmed
}

/** Why `name` cannot be saved, or undefined when it can. */
export function fileNameProblem(name: string): string | undefined {
  const stem = stemOf(name)
  if (stem === '') return 'Enter a file name.'
  if (stem.includes('/') || stem.includes('\\')) return 'A file name, not a path: no / or \\.'
  if (stem.includes('..')) return 'A file name cannot contain "..".'
  if (!STEM.test(stem)) return 'Start with a letter or digit; then letters, digits, spaces, dots, dashes or underscores (at most 100).'
  return undefined
}

/** "My RAG flow!" → "my-rag-flow" (as `vai workflow init` names files). */
export function suggestFileName(label: string): string {
  const slug = label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
  return slug === '' ? 'workflow' : slug.slice(0, 100)
}
