//! Why a run in MongoDB cannot be created, taken up, read or written.

/// Why a run in MongoDB cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum RunsError {
    #[error("no run \"{0}\"")]
    NotFound(String),
    /// Another process holds the run's lease (`holder`: who, and until when).
    #[error("run \"{id}\" is being run by another process ({holder})")]
    Busy { id: String, holder: String },
    #[error("a run \"{0}\" already exists")]
    Exists(String),
    #[error("the journal of run \"{id}\" cannot be used: {why}")]
    Corrupt { id: String, why: String },
    /// This process's lease lapsed and another took the run over, or the journal could not be
    /// written: what the run did since is not recorded.
    #[error("the journal of run \"{id}\" stopped being written: {why}")]
    Lost { id: String, why: String },
    /// MongoDB failed or did not answer (the message never holds the URI's password).
    #[error("the runs in MongoDB cannot be read or written: {0}")]
    Store(String),
}
