//! The run form's values for the open workflow, remembered per workflow in localStorage so the
//! run bar and the inspector's "Run this step" use the same inputs.
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
  load(key: string, fields: InputField[]): void
  setValue(name: string, value: FormValue): void
}

export function createInputStore(): StoreApi<InputStore> {
  return createStore<InputStore>()((set, get) => ({
    values: {},
    load: (key, fields) => set({ key, values: initialValues(fields, readStored<FormValues>(PREFIX + key, {})) }),
    setValue: (name, value) => {
      const { key, values } = get()
      const next = { ...values, [name]: value }
      if (key) writeStored(PREFIX + key, next)
      set({ values: next })
    },
  }))
}

/** A narrow selector over the app's run form values: the component re-renders only when its answer changes. */
export function useInputStore<T>(selector: (s: InputStore) => T): T {
  return useStore(useApp().stores.inputs, selector)
}
