import { describe, expect, it } from 'vitest'
import { answerFields, choiceValue, initialAnswer, serverErrors, toAnswer } from './answerForm'

// The server's own example (server/workflow/src/expects.rs).
const expects = {
  type: 'object',
  properties: {
    approved: { type: 'boolean', description: 'Go ahead?' },
    seats: { type: 'integer', minimum: 1, maximum: 9 },
    class: { enum: ['economy', 'business'] },
    note: { type: 'string', maxLength: 5 },
  },
  required: ['approved', 'seats'],
}

const fields = answerFields(expects)
const field = (name: string) => fields.find((f) => f.name === name)!

describe('answerFields', () => {
  it('reads one field per property, in order, with its kind, rules and whether it is required', () => {
    expect(fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ['approved', 'boolean', true],
      ['seats', 'integer', true],
      ['class', 'string', false],
      ['note', 'string', false],
    ])
    expect(field('approved').description).toBe('Go ahead?')
    expect(field('seats')).toMatchObject({ minimum: 1, maximum: 9 })
    expect(field('class').choices).toEqual(['economy', 'business'])
    expect(field('note').maxLength).toBe(5)
  })

  it('has no fields for an empty or unreadable schema, and a text field for an unknown type', () => {
    expect(answerFields({ type: 'object', properties: {} })).toEqual([])
    expect(answerFields('yes')).toEqual([])
    expect(answerFields(undefined)).toEqual([])
    expect(answerFields({ properties: { when: { type: 'date' } } })[0].kind).toBe('string')
  })

  it('starts from the schema’s defaults of the right kind, else empty and switches off', () => {
    const withDefaults = answerFields({
      properties: { n: { type: 'number', default: 2 }, c: { enum: [1, 2], type: 'integer', default: 2 }, bad: { type: 'integer', default: 'x' } },
    })
    expect(initialAnswer(withDefaults)).toEqual({ n: '2', c: choiceValue(2), bad: '' })
    expect(initialAnswer(fields)).toEqual({ approved: false, seats: '', class: '', note: '' })
  })
})

describe('toAnswer', () => {
  it('types a good answer and leaves empty optional fields out', () => {
    const answer = toAnswer(fields, { approved: true, seats: '2', class: choiceValue('business'), note: '' })
    expect(answer).toEqual({ input: { approved: true, seats: 2, class: 'business' }, errors: {} })
  })

  it('names every bad field as the server would', () => {
    const { errors, input } = toAnswer(fields, { approved: false, seats: '12', class: choiceValue('first'), note: 'too long' })
    expect(errors).toEqual({
      seats: 'must be at most 9',
      class: 'must be one of "economy", "business"',
      note: 'must be at most 5 characters long',
    })
    // A switch answers false, which is an answer.
    expect(input).toEqual({ approved: false })
    expect(toAnswer(fields, { seats: '' }).errors).toMatchObject({ approved: 'is required', seats: 'is required' })
    expect(toAnswer(fields, { approved: true, seats: '1.5' }).errors).toEqual({ seats: 'must be an integer' })
    expect(toAnswer(fields, { approved: true, seats: 'many' }).errors).toEqual({ seats: 'must be an integer' })
    expect(toAnswer(fields, { approved: true, seats: '0' }).errors).toEqual({ seats: 'must be at least 1' })
  })

  it('checks numbers, lengths in characters, and choices that are not strings', () => {
    const more = answerFields({
      properties: { ratio: { type: 'number' }, code: { type: 'string', minLength: 2 }, level: { type: 'integer', enum: [1, 2] } },
    })
    expect(toAnswer(more, { ratio: 'x', code: '😀', level: '' }).errors).toEqual({ ratio: 'must be a number', code: 'must be at least 2 characters long' })
    expect(toAnswer(more, { ratio: ' 0.5 ', code: '😀😀', level: choiceValue(2) })).toEqual({ input: { ratio: 0.5, code: '😀😀', level: 2 }, errors: {} })
  })
})

describe('serverErrors', () => {
  it('puts each field’s error under it, and the rest apart', () => {
    const shown = serverErrors(fields, [
      { field: 'seats', message: 'must be at most 9' },
      { field: '', message: 'the answer must be an object' },
      { field: 'extra', message: 'is not expected' },
    ])
    expect(shown).toEqual({ byField: { seats: 'must be at most 9' }, rest: ['the answer must be an object', 'extra is not expected'] })
  })
})
