//! The visual builder's routes: typed documents with versions, draft validation, references,
//! renames, completions, the stable text form, saving into the start directory and turning a
//! run into a test case.

mod documents;
mod edit;
mod save;
mod test_case;
