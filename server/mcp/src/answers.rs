//! Answering a run that waits at a `yield` step: the question as an elicitation the client shows
//! the person (`elicitation/create`, the step's `expects` as the requested schema), and the
//! answer handed to the run, checked against `expects` first. A waiting `w_*` call asks
//! through it, `workflow_resume` and `tasks/update` answer through it.

use crate::codes::ErrorCode;
use crate::failure::{Failure, Violation};
use rmcp::model::{
    ElicitRequestParams, ElicitResult, ElicitationAction, ElicitationSchema, JsonObject,
};
use rmcp::service::ElicitationMode;
use rmcp::{Peer, RoleServer};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;
use vai_contract::{RunState, WaitingFor};
use vai_runtime::Run;
use vai_runtime::runs::AnswerError;
use vai_workflow::expects::FieldError;

/// Times the person is asked for one `yield` before an answer that is still invalid ends the run.
const ASKS: usize = 2;

/// Whether the client shows form elicitations to its person.
pub(crate) fn can_ask(peer: &Peer<RoleServer>) -> bool {
    peer.supported_elicitation_modes()
        .contains(&ElicitationMode::Form)
}

/// The elicitation that asks `waiting`'s question, with what was wrong with the last answer;
/// `None` when its `expects` is not a schema a form can show.
pub(crate) fn request(waiting: &WaitingFor, wrong: &[FieldError]) -> Option<ElicitRequestParams> {
    let mut schema: JsonObject = waiting.expects.as_object().cloned().unwrap_or_default();
    schema.entry("type").or_insert_with(|| json!("object"));
    schema.entry("properties").or_insert_with(|| json!({}));
    let schema = ElicitationSchema::from_json_schema(schema).ok()?;
    let mut message = waiting.message.clone();
    if !wrong.is_empty() {
        message = format!(
            "{message}\n\nThe last answer was not accepted: {}",
            listed(wrong)
        );
    }
    Some(ElicitRequestParams::FormElicitationParams {
        meta: None,
        message,
        requested_schema: schema,
    })
}

/// How asking the person went.
pub(crate) enum Asked {
    /// The run took the answer and goes on after the event it waited at.
    Answered,
    /// The person declined (`true`) or dismissed the question.
    Refused { declined: bool },
    /// The answers given, the last one still invalid.
    Invalid(Vec<FieldError>),
    /// The client could not be asked (a schema it cannot show, an error): the run still waits.
    Unasked,
    /// The run stopped waiting meanwhile (answered elsewhere, timed out, cancelled), or the call
    /// was cancelled: follow the run again.
    MovedOn,
}

/// Ask the person what `run` waits for (as `waiting` says), at most [`ASKS`] times, and hand
/// their answer to the run.
pub(crate) async fn ask(
    peer: &Peer<RoleServer>,
    run: &Run,
    waiting: &WaitingFor,
    seq: u64,
    cancel: &CancellationToken,
) -> Asked {
    let (now, mut events) = run.subscribe();
    if now.seq != seq {
        return Asked::MovedOn;
    }
    let mut wrong = Vec::new();
    for _ in 0..ASKS {
        let Some(params) = request(waiting, &wrong) else {
            return Asked::Unasked;
        };
        let result = tokio::select! {
            result = peer.create_elicitation(params) => result,
            // Any event of a waiting run means it goes on or ends without this answer.
            _ = events.recv() => return Asked::MovedOn,
            () = cancel.cancelled() => return Asked::MovedOn,
        };
        let Ok(result) = result else {
            return Asked::Unasked;
        };
        match reply(result) {
            Err(declined) => return Asked::Refused { declined },
            Ok(answer) => match take(run, Some(&waiting.step_id), seq, answer).await {
                Ok(()) => return Asked::Answered,
                Err(AnswerError::Invalid(errors)) => wrong = errors,
                Err(AnswerError::NotWaiting) => return Asked::MovedOn,
            },
        }
    }
    Asked::Invalid(wrong)
}

/// The answer in an elicitation's result, or whether it was declined (rather than dismissed).
pub(crate) fn reply(result: ElicitResult) -> Result<Value, bool> {
    match result.action {
        ElicitationAction::Accept => Ok(result.content.unwrap_or_else(|| json!({}))),
        ElicitationAction::Decline => Err(true),
        _ => Err(false),
    }
}

/// Hand `answer` to `run`, which waits at event `seq` (the runtime keeps an answer given
/// before the run's task asks for it).
pub(crate) async fn take(
    run: &Run,
    step_id: Option<&str>,
    seq: u64,
    answer: Value,
) -> Result<(), AnswerError> {
    let now = run.snapshot();
    if now.status != RunState::Waiting || now.seq != seq {
        return Err(AnswerError::NotWaiting);
    }
    run.answer(step_id, answer)
}

/// `approved: is required; seats: must be at most 4`.
pub(crate) fn listed(errors: &[FieldError]) -> String {
    errors
        .iter()
        .map(|e| {
            if e.field.is_empty() {
                e.message.clone()
            } else {
                format!("{}: {}", e.field, e.message)
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// An answer `run` did not take.
pub(crate) fn rejected(run: &Run, error: AnswerError) -> Failure {
    match error {
        AnswerError::Invalid(errors) => invalid(run, &errors),
        AnswerError::NotWaiting => {
            let snapshot = run.snapshot();
            let (why, next) = match (snapshot.status, snapshot.waiting) {
                (RunState::Waiting, Some(w)) => (
                    format!("it waits at step \"{}\", not that one", w.step_id),
                    "answer the step it waits at (or leave step_id out)",
                ),
                (RunState::Running | RunState::Waiting, _) => (
                    "it is running".to_string(),
                    "read it with workflow_status; answer when it waits again",
                ),
                _ => (
                    "it has ended".to_string(),
                    "read how it ended with workflow_status",
                ),
            };
            Failure::new(
                ErrorCode::RunNotWaiting,
                format!("run \"{}\" is not waiting for an answer: {why}", run.id),
                next,
            )
            .run(run.id.clone())
        }
    }
}

/// An answer that does not satisfy what the run's `yield` step expects.
pub(crate) fn invalid(run: &Run, errors: &[FieldError]) -> Failure {
    let waiting = run.snapshot().waiting;
    invalid_answer(&run.id, waiting.map(|w| w.step_id), errors)
}

/// The answer given to the wait of run `run_id` (at `step`, when known) is not right.
pub(crate) fn invalid_answer(run_id: &str, step: Option<String>, errors: &[FieldError]) -> Failure {
    let mut failure = Failure::new(
        ErrorCode::InvalidAnswer,
        format!("the answer is not right: {}", listed(errors)),
        "answer again with every field the step expects (`expects` in the waiting result)",
    )
    .run(run_id.to_string())
    .violations(
        errors
            .iter()
            .map(|e| Violation::new(e.field.clone(), "expects", e.message.clone()))
            .collect(),
    );
    if let Some(step) = step {
        failure = failure.step(step);
    }
    failure
}

/// The person would not answer, so the run was cancelled.
pub(crate) fn refused(run: &Run, waiting: &WaitingFor, declined: bool) -> Failure {
    let how = if declined { "declined" } else { "dismissed" };
    Failure::new(
        ErrorCode::InputDeclined,
        format!(
            "the person {how} the question \"{}\", so the run was cancelled (and what it had done undone)",
            vai_workflow::value::truncate_chars(&waiting.message, 200)
        ),
        "run the workflow again if the person changes their mind",
    )
    .run(run.id.clone())
    .step(waiting.step_id.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn waiting(expects: Value) -> WaitingFor {
        WaitingFor {
            step_id: "ok".into(),
            within: Vec::new(),
            message: "Go on?".into(),
            expects,
            deadline_ms: None,
        }
    }

    #[test]
    fn the_question_asks_for_what_the_step_expects() {
        let w = waiting(json!({
            "type": "object",
            "properties": {"approved": {"type": "boolean", "description": "Go"}},
            "required": ["approved"]
        }));
        let ElicitRequestParams::FormElicitationParams {
            message,
            requested_schema,
            ..
        } = request(&w, &[]).unwrap()
        else {
            panic!("not a form");
        };
        assert_eq!(message, "Go on?");
        let schema = serde_json::to_value(requested_schema).unwrap();
        assert_eq!(schema["properties"]["approved"]["type"], "boolean");
        assert_eq!(schema["required"], json!(["approved"]));
    }

    #[test]
    fn asking_again_says_what_was_wrong() {
        let w = waiting(json!({}));
        let wrong = [FieldError {
            field: "approved".into(),
            message: "is required".into(),
        }];
        let ElicitRequestParams::FormElicitationParams { message, .. } =
            request(&w, &wrong).unwrap()
        else {
            panic!("not a form");
        };
        assert!(
            message.ends_with("not accepted: approved: is required"),
            "{message}"
        );
    }

    #[test]
    fn declining_and_dismissing_are_told_apart() {
        let accepted = ElicitResult::new(ElicitationAction::Accept).with_content(json!({"a": 1}));
        assert_eq!(reply(accepted), Ok(json!({"a": 1})));
        assert_eq!(
            reply(ElicitResult::new(ElicitationAction::Decline)),
            Err(true)
        );
        assert_eq!(
            reply(ElicitResult::new(ElicitationAction::Cancel)),
            Err(false)
        );
    }
}
