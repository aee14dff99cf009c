//! Editing a workflow document through its references, with the engine's own parser: every
//! reference in a document, renames of steps and inputs that rewrite each of them, and
//! completions inside templates. Everything works on the JSON as written — valid or not — and
//! reports offsets in UTF-16 code units, as the browser's strings count them.

mod complete;
mod references;
mod rewrite;
mod slots;
mod text;
mod wire;

pub use complete::{CompleteAt, Completions, complete};
pub use references::{INPUTS_NODE, references};
pub use rewrite::{RenameError, Renames, Rewritten, rewrite};
pub use wire::{Completion, CompletionKind, ReferenceKind, ReferenceSite};

#[cfg(test)]
mod complete_tests;
#[cfg(test)]
mod tests;
