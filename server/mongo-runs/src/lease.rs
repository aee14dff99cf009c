//! Who this process is in a lease, and the runs it holds: a second claim of a run this process
//! already holds is refused here, before MongoDB is asked (the lease's filter lets its own
//! holder claim again, so that a claim retried after a lost reply succeeds).

use std::collections::HashSet;
use std::sync::{Mutex, OnceLock};

/// This process as a lease owner: `<host>:<pid>:<random>`, so a person reading a lease sees which
/// machine holds it, and a restarted process on the same machine is another owner.
pub fn process_owner() -> &'static str {
    static OWNER: OnceLock<String> = OnceLock::new();
    OWNER.get_or_init(|| {
        let mut bytes = [0_u8; 4];
        if getrandom::fill(&mut bytes).is_err() {
            bytes = (vai_workflow::journal::now_ms() as u32).to_le_bytes();
        }
        let random: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        format!("{}:{}:{random}", host_name(), std::process::id())
    })
}

/// The machine's name, as far as it can be told; `unknown` otherwise.
fn host_name() -> String {
    let name = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_default();
    let name: String = name
        .trim()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_'))
        .take(64)
        .collect();
    if name.is_empty() {
        "unknown".into()
    } else {
        name
    }
}

/// A run this process holds, let go when dropped.
#[derive(Debug)]
pub(crate) struct Held {
    key: String,
}

fn held() -> &'static Mutex<HashSet<String>> {
    static HELD: OnceLock<Mutex<HashSet<String>>> = OnceLock::new();
    HELD.get_or_init(Mutex::default)
}

impl Held {
    /// Hold run `id` of the runs at `place` as `owner`; `None` when it is held already.
    pub(crate) fn take(owner: &str, place: &str, id: &str) -> Option<Held> {
        let key = format!("{owner}\n{place}\n{id}");
        let fresh = held()
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key.clone());
        // Built only when new: a `Held` dropped here would let go of the other's hold.
        fresh.then(|| Held { key })
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        held()
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&self.key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_is_held_once_per_owner_until_let_go() {
        let first = Held::take("a", "vai.runs", "r1").unwrap();
        assert!(Held::take("a", "vai.runs", "r1").is_none());
        assert!(Held::take("b", "vai.runs", "r1").is_some());
        assert!(Held::take("a", "other.runs", "r1").is_some());
        drop(first);
        assert!(Held::take("a", "vai.runs", "r1").is_some());
    }

    #[test]
    fn the_owner_names_the_machine_and_the_process() {
        let owner = process_owner();
        let parts: Vec<&str> = owner.split(':').collect();
        assert_eq!(parts.len(), 3, "{owner}");
        assert!(!parts[0].is_empty());
        assert_eq!(parts[1], std::process::id().to_string());
        assert_eq!(parts[2].len(), 8);
        assert_eq!(process_owner(), owner);
    }
}
