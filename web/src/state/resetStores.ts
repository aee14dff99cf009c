//! Puts every page-lifetime store back to the state its factory created it with, so each test
//! starts from a fresh page whichever stores the code before it touched (test/setup.ts calls it
//! before every test). A new module-level store belongs in this list.
import type { StoreApi } from 'zustand'
import { useCanvasStore } from '../canvas/useCanvasStore'
import { useChatStore } from '../chat/chatStore'
import { useEditSession } from '../editor/editSession'
import { useAccessStore } from './accessStore'
import { useBreakpointStore } from './breakpointStore'
import { useCatalogStore } from './catalogStore'
import { useConnectionStore } from './connectionStore'
import { useInputStore } from './inputStore'
import { useRecentStore } from './recentStore'
import { useRunStore } from './runStore'
import { useWorkflowStore } from './workflowStore'

/** Replaces (not merges) the state, so keys set since creation do not survive. */
function reset<T>(store: StoreApi<T>): void {
  store.setState(store.getInitialState(), true)
}

export function resetStores(): void {
  reset(useAccessStore)
  reset(useBreakpointStore)
  reset(useCatalogStore)
  reset(useConnectionStore)
  reset(useInputStore)
  reset(useRecentStore)
  reset(useRunStore)
  reset(useWorkflowStore)
  reset(useEditSession)
  reset(useCanvasStore)
  reset(useChatStore)
}
