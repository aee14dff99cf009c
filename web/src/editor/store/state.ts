//! The editor store's shape: the document and its history, what the canvas draws, the latest
//! draft-mode answers from the server, and what the person has selected.
import type { Diagnostic, GraphEdge, GraphNode, GraphView, Note, ReferenceSite, ToolView, Workflow } from '../../api/types'
import type { History } from '../doc/history'
import type { XY } from '../doc/model'
import type { NodeKeys } from '../doc/nodeKeys'
import type { LayoutView, Routes } from '../../canvas/layout'
import type { EditorLayout } from './autoLayout'
import type { EditorApi } from './editorApi'

/** Which workflow is being edited, and where Save writes. */
export interface EditorSource {
  /** The workflow key (`builtin:x`, `file:x.vai-workflow.json`, `recent:…`, `new:…`). */
  key: string
  /** The library id, when the document came from the library. */
  id?: string
  label: string
  /** Built-ins, examples, imports and new workflows: Save asks for a file name. */
  readOnly: boolean
  /** The file's version when opened or last saved (`file:` workflows). */
  version?: string
}

/** The server's draft-mode view of one document. */
export interface Analysis {
  diagnostics: Diagnostic[]
  graph?: GraphView
  references?: ReferenceSite[]
}

/** An open connect menu: from `source`, to `target` (or ask), reading `path` (or ask). */
export interface ConnectRequest {
  source: string
  target?: string
  path?: string
  /** Screen position to open at. */
  at: { left: number; top: number }
}

/** A message shown where the person is looking (the editor's status line). */
export interface Notice {
  tone: 'error' | 'warning' | 'info'
  text: string
}

export interface EditorData {
  doc: Workflow
  source: EditorSource
  /** JSON of the document as opened or last saved. */
  savedJson: string
  /** The document differs from what was opened or last saved. */
  dirty: boolean
  history: History
  /** Selected node ids: steps, `__inputs`, `__output`, notes (`noteNodeId`). */
  selection: string[]
  edgeSelection: string[]
  /** Positions the editor chose for nodes the document does not place. */
  auto: Record<string, XY>
  /** The last automatic layout (at the start, or Re-layout): its boxes and edge routes. */
  layout: EditorLayout
  /** The layout's routes that still hold where the nodes are now (autoLayout.ts). */
  routes: Routes
  /** What the canvas draws. */
  nodes: GraphNode[]
  /** The canvas node drawing each step: kept through renames, so a rename redraws in place. */
  nodeKeys: NodeKeys
  edges: GraphEdge[]
  positions: Record<string, XY>
  notes: Note[]
  /** The latest answer (for `analysedDoc`), and whether a newer one is on its way. */
  analysis: Analysis
  analysedDoc?: Workflow
  analysing: boolean
  /** Why the last analysis failed (usually: the server is gone). */
  analysisError?: string
  /** Steps whose shown outputs predate an edit of them or of something upstream. */
  stale: Record<string, true>
  notice?: Notice
  /** The field the inspector should focus (from the problems list), bumped by `seq`. */
  focus?: { stepId?: string; field?: string; seq: number }
  /** Step ids the last change renamed (the inspector keeps a renamed step's form). */
  renamed?: Record<string, string>
  /** The connect menu, when open (the canvas and the inspector both open it). */
  connecting?: ConnectRequest
  busy: boolean
}

export interface EditorDeps {
  api: EditorApi
  /** The tool catalog (read each time: it may load after the editor opens). */
  tools(): Record<string, ToolView>
  /** Delay between the last edit and the draft-mode analysis. */
  debounceMs?: number
  /** Where drafts are kept; `null` keeps none (tests). */
  storage?: Storage | null
  now?(): number
}

export interface EditorInit {
  doc: Workflow
  source: EditorSource
  /** What the document was when opened/saved; defaults to the document itself (clean). */
  savedJson?: string
  /** The server's plan of the document, when one is at hand (the read-only view had it). */
  graph?: GraphView
  diagnostics?: Diagnostic[]
  /** The canvas the read-only view laid the workflow out for: the builder starts from the same layout. */
  view?: LayoutView
}

export interface CommitOptions {
  /** Coalescing key: successive edits with the same key are one undo entry. */
  key?: string
  /** Step ids renamed by this edit, so edges and positions follow at once. */
  renames?: Record<string, string>
  /** Edges this edit adds, drawn until the server's plan arrives. */
  edges?: GraphEdge[]
  /** Positions for nodes this edit adds. */
  place?: Record<string, XY>
  /** The selection after the edit. */
  select?: string[]
  notice?: Notice
}
