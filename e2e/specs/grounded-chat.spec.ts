// The Chat panel offline, answering from what it found: the local model is too small to write
// from sources, so the answer quotes their sentences, each followed by its `[n]`. The passages
// are listed under the answer with their source, each found word for word in it; a citation
// highlights the passage it follows; and a label says the answer is quoted from the sources.
//
// Like chat.spec.ts it runs on a playground of its own with the local LLM
// (support/llm-playground.ts), over the sample knowledge base (api_docs, the chat's default).
import { llmPlayground } from '../support/llm-playground'
import { expect, test } from '../support/test'

const QUESTION = 'How do I rotate an API key?'

const playground = llmPlayground('grounded', { chat: { maxTokens: 48 } })

/** Text as read: runs of white space are one space. */
function flat(text: string | null): string {
  return (text ?? '').replace(/\s+/g, ' ').trim()
}

test('an offline answer quotes the passages it cites, shows them, and says it is quoted', async ({ page }, testInfo) => {
  // The first question loads the models.
  test.setTimeout(300_000)
  await page.goto(playground().printedUrl)
  await page.getByRole('button', { name: 'Show chat' }).click()
  const chat = page.getByRole('complementary', { name: 'Chat' })
  await expect(chat.getByTestId('chat-model-label')).toContainText('local')
  // Asked where the offline default looks: the sample's api_docs collection.
  await expect(chat.getByText(/Ask a question about the knowledge base \([^)]*api_docs\)/)).toBeVisible()

  await chat.getByRole('textbox', { name: 'Question' }).fill(QUESTION)
  await chat.getByRole('button', { name: 'Ask' }).click()
  const turn = chat.getByTestId('chat-turn')
  await expect(turn).toHaveAttribute('data-phase', 'done', { timeout: 240_000 })

  const answer = turn.getByTestId('chat-answer')
  const answerText = flat(await answer.textContent())
  testInfo.annotations.push({ type: 'answer', description: answerText })

  // Cited: at least one [n] of the answer is a link to its source.
  const citations = answer.getByRole('button', { name: /^\[\d+\]$/ })
  await expect(citations.first()).toBeVisible()

  // Its passages, each with its number and source, each quoted word for word in the answer.
  const passages = turn.getByTestId('chat-passage')
  await expect(passages.first()).toBeVisible()
  await expect(passages.first()).toContainText(/^\[\d+\] \S/)
  const quoted = await turn.getByTestId('chat-passage-text').allTextContents()
  expect(quoted.length).toBeGreaterThan(0)
  for (const passage of quoted) expect(answerText).toContain(flat(passage))

  await expect(turn.getByTestId('answer-method')).toHaveText('Quoted from the sources')

  // A citation highlights the passage it follows; chosen again, it opens its source.
  await citations.first().click()
  await expect(turn.locator('[data-testid="chat-passage"][data-highlighted="true"]')).toHaveCount(1)
  await expect(page.getByRole('dialog')).toBeHidden()
  await citations.first().click()
  await expect(page.getByRole('dialog')).toBeVisible()
  await expect(page.getByRole('dialog').getByTestId('chat-source-text')).not.toBeEmpty()
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click()

  const shot = testInfo.outputPath('grounded-answer.png')
  await page.screenshot({ path: shot })
  await testInfo.attach('grounded answer', { path: shot, contentType: 'image/png' })
})
