//! The run journal in MongoDB, for a team whose machines share their runs: each run is a summary
//! document (`runs`: what listing, pruning and leases read) and its journal lines in order
//! (`run_lines`), written as the file journal writes them and folded by the same
//! `vai_workflow::journal::read`. A process that runs, resumes or answers a run first claims it
//! with a lease (one atomic `findOneAndUpdate`, expiring by the server's clock), renews it while
//! it holds the run and lets it go at the end; a machine that dies lets its lease lapse, and
//! another may then take the run up. (`vai-workflow` never sees MongoDB; the CLI chooses this
//! store from `.vai.json`.)

mod backend;
pub mod documents;
mod error;
mod journal;
mod lease;
mod lines;
mod shared;
mod store;
mod writer;

#[cfg(any(test, feature = "fakes"))]
pub mod fake_db;
#[cfg(test)]
mod live_tests;
#[cfg(test)]
mod wire_tests;

pub use error::RunsError;
pub use journal::MongoJournal;
pub use lease::process_owner;
pub use store::{
    DEFAULT_DATABASE, LEASE, LINES_COLLECTION, MAX_TIME, MongoRuns, OPERATION_TIMEOUT,
    RUNS_COLLECTION,
};
