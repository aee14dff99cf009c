//! The engine's estimate of provider calls (`GraphView.estimate`), and the empty one for graphs
//! nobody planned yet.
import type { ApiCalls, Estimate } from '../api/types'

const NONE: ApiCalls = { embed: 0, rerank: 0, vectorSearch: 0, llm: 0, http: 0 }

export const NO_ESTIMATE: Estimate = { fixed: NONE, perItem: NONE }
