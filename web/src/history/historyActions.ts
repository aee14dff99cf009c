//! Working with the run history: listing a workflow's past runs, opening one on the canvas as it
//! ended (its recorded definition planned and drawn, its snapshot folded into the run store so
//! the nodes, the cost overlay and the inspector read it as they read a live run), comparing two,
//! and restarting from a step of the one shown (the new run is followed live).
import type { App } from '../app/createApp'
import { ApiError, errorInfo } from '../api/client'
import type { RunSnapshot } from '../api/types'
import { inputFieldsOf } from '../hooks/useInputFields'
import { coerceInputs, formValuesOf } from '../runbar/coerce'
import { leaveEditing, setUrl, type HistoryMode } from '../state/openWorkflow'
import { olderFirst } from './diffView'
import { pastKey, pastOnCanvas, type HistoryStore } from './historyStore'
import { restartBody } from './restartBody'

export interface HistoryActions {
  /** Lists the past runs of `workflowId` (every workflow's when undefined) with `status`. */
  list(workflowId: string | undefined, status?: string): Promise<void>
  /** Lists again as last asked (a run of the workflow ended). */
  refresh(): Promise<void>
  /** Draws past run `runId` as it ended; its steps' recorded inputs and outputs in the inspector. */
  open(runId: string, history?: HistoryMode): Promise<void>
  /** From a past run back to its workflow as it is now, or to nothing when it is gone. */
  leave(): Promise<void>
  /** Picks or unpicks a run to compare: two at most, a third replaces the earlier pick. */
  pick(runId: string, on: boolean): void
  clearPicks(): void
  /** Compares two runs, the one that started first as A; B is drawn, its steps marked. */
  compare(x: string, y: string): Promise<void>
  stopComparing(): void
  /**
   * Runs again from step `from` of the run shown (a past run, or one restarted from it), with the
   * definition as it is now (edited or not) and the run form's inputs; follows the new run.
   */
  restart(from: string): Promise<void>
}

const LIVE: ReadonlySet<string> = new Set(['running', 'waiting'])

export function createHistoryActions(app: App): HistoryActions {
  const { stores, api, socket } = app
  const history = () => stores.history.getState()
  const set = (state: Partial<HistoryStore>) => stores.history.setState(state)
  const workflow = () => stores.workflow.getState()
  const runs = () => stores.run.getState()
  /** Bumped on every open and list, so a slow earlier answer cannot overwrite a later one. */
  let opening = 0
  let listing = 0

  async function list(workflowId: string | undefined, status?: string): Promise<void> {
    const mine = ++listing
    set({ listing: true, listError: undefined, listed: { workflowId, status } })
    try {
      const { runs: found } = await api.history({ workflowId, status })
      // A run ticked to compare that is not listed any more (another workflow, another status) is let go.
      const picked = history().picked.filter((id) => found.some((r) => r.runId === id))
      if (mine === listing) set({ runs: found, listing: false, listedAt: Date.now(), picked })
    } catch (e) {
      if (mine === listing) set({ listing: false, listError: errorInfo(e).message })
    }
  }

  /** The snapshot of a run shown in the run store, as it ended (or live, followed, if it goes on). */
  function show(snapshot: RunSnapshot, workflowId: string | undefined, fromRun: string | undefined): void {
    runs().begin(snapshot.runId, workflowId, fromRun)
    runs().apply({ type: 'snapshot', run: snapshot })
    if (LIVE.has(snapshot.status)) socket.follow(snapshot.runId)
  }

  async function open(runId: string, mode: HistoryMode = 'push'): Promise<void> {
    if (!(await leaveEditing(app))) return
    const mine = ++opening
    const before = workflow().current
    workflow().setLoading(true)
    try {
      const [record, snapshot] = await Promise.all([api.historyRecord(runId), api.getRun(runId)])
      const text = JSON.stringify(record.definition, null, 2)
      const plan = await api.plan({ text })
      if (mine !== opening) return
      if (workflow().current !== before) return workflow().setLoading(false)
      const key = pastKey(runId)
      // Its workflow's library id while the library still has it (absent `changedSince`: gone).
      const id = record.changedSince === undefined ? undefined : record.run.workflowId
      socket.unfollow()
      runs().reset()
      stores.inputs.getState().seed(key, formValuesOf(record.inputs))
      stores.inputs.getState().load(key, inputFieldsOf(plan.graph))
      workflow().setOpened({
        current: { id, key, label: record.run.workflow, text, definition: record.definition, readOnly: true },
        graph: plan.graph,
        diagnostics: plan.diagnostics ?? [],
      })
      const steps = plan.graph?.nodes.flatMap((n) => (n.kind === 'step' ? [n.id] : [])) ?? []
      stores.breakpoints.getState().forWorkflow(key, steps)
      show(snapshot, record.run.workflowId, record.run.from?.runId)
      const { comparison } = history()
      set({ past: record, restarted: undefined, comparison: comparison?.b === runId ? comparison : undefined })
      setUrl(key, mode)
    } catch (e) {
      if (mine !== opening) return
      // Said where a workflow that does not open is (above the canvas, or in its place).
      workflow().setLoadError(`past run ${runId}: ${errorInfo(e).message}`)
    }
  }

  return {
    list,
    refresh: async () => {
      const { listed } = history()
      if (listed) await list(listed.workflowId, listed.status)
    },
    open,

    leave: async () => {
      const past = pastOnCanvas(history(), workflow())
      if (!past) return
      if (!(await leaveEditing(app))) return
      set({ past: undefined, comparison: undefined, restarted: undefined, picked: [] })
      const id = past.changedSince === undefined ? undefined : past.run.workflowId
      if (id) return app.open.byId(id)
      socket.unfollow()
      runs().reset()
      workflow().close()
      setUrl(undefined, 'push')
    },

    pick: (runId, on) => {
      const rest = history().picked.filter((id) => id !== runId)
      set({ picked: on ? [...rest, runId].slice(-2) : rest })
    },

    compare: async (x, y) => {
      const known = history().runs
      const sideOf = (runId: string) => known.find((r) => r.runId === runId) ?? { runId, startedAt: 0 }
      const [a, b] = olderFirst(sideOf(x), sideOf(y)).map((r) => r.runId)
      set({ comparison: { a, b, loading: true } })
      const stillAsked = () => history().comparison?.a === a && history().comparison?.b === b
      const drawing = runs().runId === b && pastOnCanvas(history(), workflow()) ? undefined : open(b)
      // B is drawn whether or not the server can compare the two.
      const [diffed] = await Promise.allSettled([api.diffRuns(a, b), drawing])
      if (!stillAsked()) return
      if (diffed.status === 'fulfilled') set({ comparison: { a, b, diff: diffed.value, loading: false } })
      else set({ comparison: { a, b, loading: false, error: errorInfo(diffed.reason).message } })
    },

    clearPicks: () => set({ picked: [] }),

    stopComparing: () => set({ comparison: undefined }),

    restart: async (from) => {
      const shown = runs().runId
      const { current, graph } = workflow()
      if (!shown || !current) return
      const past = pastOnCanvas(history(), workflow())
      const restarted = history().restarted
      // What the shown run ran with, when known: what is unchanged since is not sent again.
      const ran = past?.run.runId === shown ? { definition: past.definition, inputs: past.inputs } : restarted?.runId === shown ? restarted : undefined
      const coerced = coerceInputs(inputFieldsOf(graph), stores.inputs.getState().values)
      if (Object.keys(coerced.errors).length > 0) {
        set({
          restartError: `Fix the run form first: ${Object.entries(coerced.errors)
            .map(([k, v]) => `${k} (${v})`)
            .join(', ')}`,
        })
        return
      }
      const body = restartBody({ from, definition: current.definition, ran: ran?.definition, inputs: coerced.inputs, ranWith: ran?.inputs })
      set({ restarting: true, restartError: undefined })
      try {
        const { runId } = await api.restartRun(shown, body)
        runs().begin(runId, current.id ?? past?.run.workflowId, shown)
        socket.follow(runId)
        const definition = body.definition ?? ran?.definition
        set({ restarting: false, restarted: { runId, from: { runId: shown, step: from }, definition, inputs: { ...ran?.inputs, ...body.inputs } } })
      } catch (e) {
        set({ restarting: false, restartError: errorInfo(e).message })
        if (e instanceof ApiError && e.diagnostics.length > 0) workflow().setDiagnostics(e.diagnostics)
      }
    },
  }
}
