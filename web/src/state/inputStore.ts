//! The run form's values for the open workflow, remembered per workflow in localStorage so the
//! run bar and the inspector's "Run this step" use the same inputs.
import { create } from 'zustand'
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

export function createInputStore() {
  return create<InputStore>()((set, get) => ({
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

export const useInputStore = createInputStore()
