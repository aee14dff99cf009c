//! What the editor asks the server, as one interface so tests swap in a fake.
import type { Api } from '../../api/client'
import type {
  CompleteRequest,
  CompleteResponse,
  PlanResponse,
  ReferenceSite,
  RewriteRequest,
  RewriteResponse,
  SaveRequest,
  SaveResponse,
  Workflow,
  WorkflowDocument,
} from '../../api/types'

export interface EditorApi {
  /** Draft-mode plan: diagnostics and the graph, even for an unfinished workflow. */
  plan(doc: Workflow): Promise<PlanResponse>
  /** Plans raw text (an import), so JSON syntax errors come back with line and column. */
  planText(text: string): Promise<PlanResponse>
  references(doc: Workflow): Promise<ReferenceSite[]>
  rewrite(body: RewriteRequest): Promise<RewriteResponse>
  complete(body: CompleteRequest): Promise<CompleteResponse>
  format(doc: Workflow): Promise<string>
  save(body: SaveRequest): Promise<SaveResponse>
  getWorkflow(id: string): Promise<WorkflowDocument>
}

/** The editor's questions, asked of the app's API client. */
export function httpEditorApi(api: Api): EditorApi {
  return {
    plan: (doc) => api.plan({ definition: doc, mode: 'draft' }),
    planText: (text) => api.plan({ text, mode: 'draft' }),
    references: async (doc) => (await api.references(doc)).references,
    rewrite: (body) => api.rewrite(body),
    complete: (body) => api.complete(body),
    format: async (doc) => (await api.format(doc)).text,
    save: (body) => api.save(body),
    getWorkflow: (id) => api.getWorkflow(id),
  }
}
