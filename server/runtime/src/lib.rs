//! What every vai front end shares — the playground server, the MCP server and the CLI: the
//! workflow library (built-ins and examples embedded in the binary, the `*.vai-workflow.json`
//! files of one directory) and the run manager (event log, snapshots, cancellation, budgets). A
//! run started from any of them is the same kind of run, with the same events.

pub mod builtin;
pub mod library;
pub mod runs;
pub mod save;
pub mod secret;
pub mod tool_schema;

pub use library::{FILE_SUFFIX, Library, LibraryEntry, LibraryError, id_of, version_of};
pub use runs::{BeforeRun, Run, RunBudget, RunManager, StartError, StartRequest, WrapSink};
pub use save::{SaveError, SaveRequest, Saved};
pub use secret::{AccessToken, TokenError};
