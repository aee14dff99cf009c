//! The run form's values for the open workflow, remembered per workflow in localStorage so the
//! run bar and the inspector's "Run this step" use the same inputs. A past run opened from the
//! history is seeded with the inputs it ran with instead, kept for the page only.
import { useStore } from 'zustand'
import { createStore, type StoreApi } from 'zustand/vanilla'
import { useApp } from '../app/AppContext'
import type { InputField } from '../api/types'
import { readStored, writeStored } from '../hooks/useStoredState'
import { initialValues, type FormValue, type FormValues } from '../runbar/coerce'

const PREFIX = 'vai.inputs.v1:'

export interface InputStore {
  /** The workflow key the values belong to. */
  key?: string
  values: FormValues
  /** Values given for a key rather than remembered (a past run's inputs), and edits of them. */
  seeds: Record<string, FormValues>
  load(key: string, fields: InputField[]): void
  /** The form of `key` starts from `values`, not from what this browser remembers. */
  seed(key: string, values: FormValues): void
  setValue(name: string, value: FormValue): void
}

export function createInputStore(): StoreApi<InputStore> {
  return createStore<InputStore>()((set, get) => ({
    values: {},
    seeds: {},
    load: (key, fields) => set({ key, values: initialValues(fields, get().seeds[key] ?? readStored<FormValues>(PREFIX + key, {})) }),
    seed: (key, values) => set((s) => ({ seeds: { ...s.seeds, [key]: values }, ...(s.key === key ? { values } : {}) })),
    setValue: (name, value) => {
      const { key, values, seeds } = get()
      const next = { ...values, [name]: value }
      if (key && seeds[key]) set({ seeds: { ...seeds, [key]: next } })
      else if (key) writeStored(PREFIX + key, next)
      set({ values: next })
    },
  }))
}

/** A narrow selector over the app's run form values: the component re-renders only when its answer changes. */
export function useInputStore<T>(selector: (s: InputStore) => T): T {
  return useStore(useApp().stores.inputs, selector)
}
