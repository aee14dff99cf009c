//! Save, save as, reload from disk and export. A failed save changes nothing in the editor: the
//! document, its history and its draft stay, and the outcome says why.
import { ApiError, errorInfo } from '../../api/client'
import type { WorkflowSummary } from '../../api/types'
import { removeDraft } from '../drafts'
import { isObject } from '../doc/json'
import { shareStructure } from '../doc/json'
import type { EditorContext } from './createEditorStore'
import { fileNameOf } from '../../state/workflowFile'

export type SaveOutcome =
  | { status: 'saved'; id: string; summary: WorkflowSummary }
  /** Built-ins, examples and new workflows: ask for a file name (Save as). */
  | { status: 'needs-name' }
  /** The file changed on disk since it was opened. */
  | { status: 'conflict'; message: string }
  /** Save as onto a file that exists. */
  | { status: 'exists'; message: string }
  | { status: 'error'; message: string }

export interface FileActions {
  save(): Promise<SaveOutcome>
  /**
   * Saves under a new file name; `overwrite` replaces an existing file. A `name` becomes the
   * workflow's name first (one undoable edit), so an untitled workflow is saved named.
   */
  saveAs(fileName: string, options?: { overwrite?: boolean; name?: string }): Promise<SaveOutcome>
  /** Saves over a file that changed on disk (the conflict dialog's "Save anyway"). */
  saveAnyway(): Promise<SaveOutcome>
  /** Replaces the document with the file on disk, as one undoable edit. */
  reloadFromDisk(): Promise<void>
  /** The document in the stable text form that Save writes (for Download and Copy). */
  exportText(): Promise<string | undefined>
}

export function fileActions(ctx: EditorContext): FileActions {
  const { get, deps } = ctx

  async function write(fileName: string, options: { baseVersion?: string; overwrite?: boolean }): Promise<SaveOutcome> {
    const doc = get().doc
    const before = get().source
    ctx.set({ busy: true })
    try {
      const saved = await deps.api.save({ fileName, definition: doc as never, ...options })
      const source = { key: saved.id, id: saved.id, label: saved.summary.name, readOnly: false, version: saved.version }
      if (before.key !== source.key) removeDraft(before.key, deps.storage ?? undefined)
      ctx.set({ source, busy: false })
      // What was written is the document as it was sent; later edits stay unsaved.
      ctx.reset(get().doc, {
        savedJson: JSON.stringify(doc),
        notice: { tone: 'info', text: `Saved ${fileName.endsWith('.vai-workflow.json') ? fileName : `${fileName}.vai-workflow.json`}.` },
      })
      return { status: 'saved', id: saved.id, summary: saved.summary }
    } catch (e) {
      ctx.set({ busy: false })
      const { code, message } = errorInfo(e)
      if (code === 'CONFLICT' && e instanceof ApiError && e.status === 409) {
        return options.baseVersion !== undefined || before.id === `file:${fileName}` ? { status: 'conflict', message } : { status: 'exists', message }
      }
      ctx.set({ notice: { tone: 'error', text: `Not saved: ${message} Your changes are still here.` } })
      return { status: 'error', message }
    }
  }

  return {
    save: async () => {
      const { source } = get()
      const fileName = fileNameOf(source.id)
      if (source.readOnly || !fileName) return { status: 'needs-name' }
      return write(fileName, { baseVersion: source.version })
    },
    saveAs: (fileName, { overwrite, name } = {}) => {
      if (name !== undefined && name !== get().doc.name) get().replaceWorkflow({ ...get().doc, name })
      return write(fileName, { overwrite: overwrite || undefined })
    },
    saveAnyway: async () => {
      const fileName = fileNameOf(get().source.id)
      if (!fileName) return { status: 'needs-name' }
      return write(fileName, { overwrite: true })
    },
    reloadFromDisk: async () => {
      const { source } = get()
      if (!source.id) return
      try {
        const disk = await deps.api.getWorkflow(source.id)
        const definition = disk.definition
        if (!isObject(definition) || !Array.isArray(definition.steps)) {
          ctx.set({
            notice: {
              tone: 'error',
              text: 'The file on disk is not a workflow the editor can open (is it valid JSON with steps?). Your version is still here.',
            },
          })
          return
        }
        const doc = shareStructure(get().doc, definition as never)
        ctx.set({ source: { ...source, version: disk.version } })
        get().commit(doc, { notice: { tone: 'info', text: 'Reloaded from disk. Undo brings your version back.' } })
        ctx.reset(get().doc, { savedJson: JSON.stringify(definition) })
      } catch (e) {
        ctx.set({ notice: { tone: 'error', text: `Could not reload from disk: ${errorInfo(e).message}` } })
      }
    },
    exportText: async () => {
      try {
        return await deps.api.format(get().doc)
      } catch (e) {
        ctx.set({ notice: { tone: 'error', text: `Could not export: ${errorInfo(e).message}` } })
        return undefined
      }
    },
  }
}
