//! What the library knows of where a workflow lives: `file:<name>` keys are files of the folder
//! `vai playground` was started in; the others are built-ins, examples and pasted text.
import { RECENT_PREFIX } from './recents'

/** The file name of a `file:` workflow key (`file:walk.vai-workflow.json` → `walk.vai-workflow.json`). */
export function fileNameOf(key: string | undefined): string | undefined {
  return key?.startsWith('file:') ? key.slice('file:'.length) : undefined
}

/** Where a workflow comes from, as the library shows it beside the name: the file name, else its kind. */
export function originOf(key: string): string | undefined {
  const file = fileNameOf(key)
  if (file) return file
  if (key.startsWith('builtin:')) return 'built-in'
  if (key.startsWith('example:')) return 'example'
  if (key.startsWith(RECENT_PREFIX)) return 'pasted or dropped'
  return undefined
}
