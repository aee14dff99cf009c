//! One playground app: its stores, its API client, its socket and the actions that work on
//! them, created once per mounted `<App>` (and once per test), as React Flow creates one store
//! per `<ReactFlow>`. Nothing of it lives at module level, so two apps never share state and a
//! test starts from a fresh page by creating one.
import type { StoreApi } from 'zustand/vanilla'
import { createApi, type Api } from '../api/client'
import { RunSocket } from '../api/socket'
import { createCanvasStore, type CanvasStore } from '../canvas/useCanvasStore'
import { createChatActions, type ChatActions } from '../chat/chatActions'
import { createChatStore, type ChatStore } from '../chat/chatStore'
import { createEditing, createEditSessionStore, type Editing, type EditSession } from '../editor/editSession'
import { createHistoryActions, type HistoryActions } from '../history/historyActions'
import { createHistoryStore, type HistoryStore } from '../history/historyStore'
import { referenceIndexes, type ReferenceIndexes } from '../hooks/useReferences'
import { createPresenterStore, presentIn, type PresenterStore } from '../shell/presenter'
import { createAccessStore, type AccessStore } from '../state/accessStore'
import { createBreakpointStore, type BreakpointStore } from '../state/breakpointStore'
import { createCatalogStore, type CatalogStore } from '../state/catalogStore'
import { createConnectionStore, type ConnectionStore } from '../state/connectionStore'
import { createInputStore, type InputStore } from '../state/inputStore'
import { createLibraryActions, type LibraryActions } from '../state/libraryActions'
import { createOpenActions, type OpenActions } from '../state/openWorkflow'
import { createRecentStore, type RecentStore } from '../state/recentStore'
import { createRunActions, type RunActions } from '../state/runActions'
import { createRunStore, type RunStore } from '../state/runStore'
import { createStepActions, type StepActions } from '../state/stepActions'
import { createWorkflowStore, type WorkflowStore } from '../state/workflowStore'

export interface AppStores {
  access: StoreApi<AccessStore>
  breakpoints: StoreApi<BreakpointStore>
  canvas: StoreApi<CanvasStore>
  catalog: StoreApi<CatalogStore>
  chat: StoreApi<ChatStore>
  connection: StoreApi<ConnectionStore>
  editSession: StoreApi<EditSession>
  history: StoreApi<HistoryStore>
  inputs: StoreApi<InputStore>
  presenter: StoreApi<PresenterStore>
  recents: StoreApi<RecentStore>
  run: StoreApi<RunStore>
  workflow: StoreApi<WorkflowStore>
}

/** What the actions work on. */
export interface AppCore {
  stores: AppStores
  api: Api
  /** The app's one connection: runs are followed and chat questions asked on it. */
  socket: RunSocket
  /** The open document's reference index, asked once per document. */
  references: ReferenceIndexes
}

/** What the app does, by concern; components reach them through `useApp()`. */
export interface AppActions {
  open: OpenActions
  library: LibraryActions
  runs: RunActions
  history: HistoryActions
  stepping: StepActions
  editing: Editing
  chat: ChatActions
}

export type App = AppCore & AppActions

function createStores(access: StoreApi<AccessStore>, api: Api): AppStores {
  const workflow = createWorkflowStore()
  return {
    access,
    breakpoints: createBreakpointStore(),
    canvas: createCanvasStore((id) => workflow.getState().select(id)),
    catalog: createCatalogStore(api),
    chat: createChatStore(),
    connection: createConnectionStore(),
    editSession: createEditSessionStore(),
    history: createHistoryStore(),
    inputs: createInputStore(),
    presenter: createPresenterStore(presentIn(window.location.href)),
    recents: createRecentStore(),
    run: createRunStore(),
    workflow,
  }
}

export function createApp(): App {
  const access = createAccessStore()
  const api = createApi(() => access.getState().deny())
  const socket = new RunSocket({ refused: () => access.getState().denied, probe: () => void api.configStatus().catch(() => undefined) })
  const core: AppCore = { stores: createStores(access, api), api, socket, references: referenceIndexes(api) }
  // The action groups call one another when they run (opening a workflow may end an editing
  // session, whose chunk opens workflows), so each is handed the whole app: the core is there
  // from the start, the other groups by the time anything runs.
  const app = core as App
  return Object.assign(app, {
    open: createOpenActions(app),
    library: createLibraryActions(app),
    runs: createRunActions(app),
    history: createHistoryActions(app),
    stepping: createStepActions(app),
    editing: createEditing(app),
    chat: createChatActions(app),
  } satisfies AppActions)
}
