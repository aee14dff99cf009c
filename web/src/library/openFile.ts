//! Opening a workflow from a local file (picker or drop).
import type { OpenActions } from '../state/openWorkflow'

/** The file name without `.json` / `.vai-workflow.json`. */
export function fileLabel(name: string): string {
  return name.replace(/\.json$/i, '').replace(/\.vai-workflow$/i, '')
}

export async function openFile(open: OpenActions, file: File): Promise<void> {
  const text = await file.text()
  await open.text(text, fileLabel(file.name))
}
