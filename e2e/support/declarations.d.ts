// Types of the plain-ESM helpers shared with the Node benchmark scripts.
declare module '*/playground.mjs' {
  import type { ChildProcess } from 'node:child_process'
  export const repoRoot: string
  export const fixturesDir: string
  export const chromiumPath: string
  export const chromiumArgs: string[]
  export function vaiBinary(): string
  export function modelDir(env?: NodeJS.ProcessEnv): string
  export function llmDir(env?: NodeJS.ProcessEnv): string
  export function isolatedEnv(home: string, options?: { llm?: boolean }): NodeJS.ProcessEnv
  export function authHeaders(token: string): { authorization: string }
  export function signIn(context: import('@playwright/test').BrowserContext, printedUrl: string): Promise<string>
  export interface Playground {
    /** The origin, without a trailing slash. */
    url: string
    /** The access token the printed URL carries. */
    token: string
    /** The URL exactly as printed, `?token=…` included. */
    printedUrl: string
    child: ChildProcess
    home: string
    startedAt: number
    output(): string
    stop(): Promise<void>
  }
  export function startPlayground(options?: {
    cwd?: string
    args?: string[]
    timeoutMs?: number
    onOutput?: (text: string) => void
    home?: string
    /** Answer with the local LLM (its GGUF where scripts/fetch-model.sh put it). */
    llm?: boolean
  }): Promise<Playground>
}
declare module '*/slow-server.mjs' {
  export function startSlowServer(options?: { delayMs?: number }): Promise<{ url: string; close(): Promise<void> }>
}
