use super::*;
use vai_contract::{ChatMode, ChatTimings, TurnStatus};

/// A finished pipeline turn: the crate's tests' fixture, changed with `..turn(q, at)`.
pub(crate) fn turn(question: &str, started_at: u64) -> ChatTurn {
    ChatTurn {
        id: format!("t{started_at}"),
        question: question.into(),
        answer: format!("answer to {question}"),
        status: TurnStatus::Done,
        error: None,
        mode: ChatMode::Pipeline,
        notice: None,
        sources: vec![],
        method: None,
        tool_calls: vec![],
        provider: "fake".into(),
        model: "m".into(),
        usage: Default::default(),
        timings: ChatTimings::default(),
        started_at,
    }
}

/// What every store must do.
async fn behaves(history: &dyn History) {
    assert_eq!(history.load("a").await.unwrap(), None);
    history
        .append("a", &turn("first  question\nof a", 10))
        .await
        .unwrap();
    history.append("a", &turn("second", 20)).await.unwrap();
    history.append("b", &turn("other", 15)).await.unwrap();

    let a = history.load("a").await.unwrap().unwrap();
    assert_eq!(a.title, "first question of a");
    assert_eq!(a.created_at, 10);
    assert_eq!(a.updated_at, 20);
    let questions: Vec<_> = a.turns.iter().map(|t| t.question.as_str()).collect();
    assert_eq!(questions, ["first  question\nof a", "second"]);

    let listed: Vec<_> = history
        .list()
        .await
        .unwrap()
        .into_iter()
        .map(|s| (s.id, s.turn_count))
        .collect();
    assert_eq!(listed, [("a".to_string(), 2), ("b".to_string(), 1)]);

    assert!(history.delete("b").await.unwrap());
    assert!(!history.delete("b").await.unwrap());
    assert_eq!(history.list().await.unwrap().len(), 1);
}

#[tokio::test]
async fn the_memory_store_keeps_sessions() {
    behaves(&MemoryHistory::new()).await;
}

#[tokio::test]
async fn the_file_store_keeps_sessions_across_instances() {
    let dir = tempfile::tempdir().unwrap();
    let store = FileHistory::new(dir.path().join("chat"));
    behaves(&store).await;
    let again = FileHistory::new(dir.path().join("chat"));
    assert_eq!(again.load("a").await.unwrap().unwrap().turns.len(), 2);
}

#[cfg(unix)]
#[tokio::test]
async fn the_file_store_keeps_sessions_private() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let chat = dir.path().join("data").join("chat");
    FileHistory::new(&chat)
        .append("s", &turn("q", 1))
        .await
        .unwrap();
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&chat), 0o700);
    assert_eq!(mode(&chat.join("s.json")), 0o600);
}

#[tokio::test]
async fn the_file_store_refuses_ids_that_name_other_files() {
    let dir = tempfile::tempdir().unwrap();
    let store = FileHistory::new(dir.path());
    for id in ["../x", "a/b", "", ".hidden", &"x".repeat(65)] {
        let err = store.load(id).await.unwrap_err();
        assert!(matches!(err, HistoryError::BadId(_)), "{id}: {err}");
        assert!(store.append(id, &turn("q", 1)).await.is_err());
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[tokio::test]
async fn a_broken_session_file_is_an_error_that_names_it_and_is_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("s.json"), "{ not json").unwrap();
    let store = FileHistory::new(dir.path());
    let err = store.load("s").await.unwrap_err().to_string();
    assert!(err.contains("s.json is not a chat session"), "{err}");
    // Adding a turn does not overwrite what the user had.
    assert!(store.append("s", &turn("q", 1)).await.is_err());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("s.json")).unwrap(),
        "{ not json"
    );
    // The list leaves it out rather than failing.
    assert!(store.list().await.unwrap().is_empty());
}

#[test]
fn ids_are_new_and_valid() {
    let (a, b) = (new_id(), new_id());
    assert_ne!(a, b);
    assert_eq!(a.len(), 32);
    check_id(&a).unwrap();
}
