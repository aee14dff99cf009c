//! The process's exit codes: what every command returns to the shell, and `main` on an error.

/// The run finished (or the command did what was asked).
pub(crate) const EXIT_OK: u8 = 0;
/// The run failed, or a test failed.
pub(crate) const EXIT_FAILED: u8 = 1;
/// The workflow, an input or an argument is invalid.
pub(crate) const EXIT_INVALID: u8 = 2;
/// The run waits for a person (a `yield` step) and was saved: `vai runs resume` goes on.
pub(crate) const EXIT_WAITING: u8 = 3;
/// Interrupted (Ctrl-C).
pub(crate) const EXIT_INTERRUPTED: u8 = 130;
