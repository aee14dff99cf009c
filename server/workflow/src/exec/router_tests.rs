//! A `router` step: the engine skips the steps of the routes its tool did not choose, names
//! the choice as the reason, and refuses an output that chooses no route. The tool here picks
//! the route its `pick` input names (the real router is a model tool in vai-tools).

use super::*;
use crate::compile::{Mode, compile};
use crate::diagnostic::DiagnosticCode;
use crate::events::{RunEvent, RunStatus};
use crate::test_support::{FnTool, registry_with};
use serde_json::{Value, json};
use std::sync::Mutex;

struct Skips(Mutex<Vec<(String, String)>>);

impl EventSink for Skips {
    fn emit(&self, event: RunEvent) {
        if let RunEvent::StepSkipped { step_id, reason } = event {
            self.0.lock().unwrap().push((step_id, reason));
        }
    }
}

/// A registry with a `router` that chooses `inputs.pick`, and `echo`.
fn registry() -> Registry {
    registry_with(|r| {
        r.register(Arc::new(FnTool::new("router", &["routes"], |inputs| {
            Ok(json!({"route": inputs.get("pick").cloned().unwrap_or(Value::Null)}))
        })));
    })
}

fn support(pick: &str) -> Value {
    json!({"name": "t", "steps": [
        {"id": "triage", "tool": "router", "inputs": {"pick": pick, "routes": [
            {"id": "billing", "description": "money", "steps": ["refund", "invoice"]},
            {"id": "technical", "description": "bugs", "steps": ["debug"]}
        ]}},
        {"id": "refund", "tool": "echo", "inputs": {}},
        {"id": "invoice", "tool": "echo", "inputs": {}},
        {"id": "debug", "tool": "echo", "inputs": {}},
        {"id": "reply", "tool": "echo", "inputs": {"r": "{{ triage.output.route }}"}}
    ]})
}

async fn run_picking(wf: Value) -> (RunResult, Vec<(String, String)>) {
    let reg = registry();
    let c = compile(&wf, &reg, Mode::Strict);
    let plan = c.plan.unwrap_or_else(|| panic!("{:#?}", c.diagnostics));
    let skips = Arc::new(Skips(Mutex::new(Vec::new())));
    let result = run(plan, Arc::new(reg), RunOptions::default(), skips.clone())
        .await
        .unwrap();
    let skipped = skips.0.lock().unwrap().clone();
    (result, skipped)
}

fn skipped(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

#[tokio::test]
async fn the_routes_not_chosen_are_skipped_naming_the_choice() {
    let (r, skips) = run_picking(support("billing")).await;
    assert_eq!(r.status, RunStatus::Completed);
    assert_eq!(
        skips,
        skipped(&[("debug", "router \"triage\" chose \"billing\"")])
    );
    let (r, mut skips) = run_picking(support("technical")).await;
    assert_eq!(r.status, RunStatus::Completed);
    skips.sort();
    let why = "router \"triage\" chose \"technical\"";
    assert_eq!(skips, skipped(&[("invoice", why), ("refund", why)]));
    // A step in no route runs whatever was chosen.
    assert!(
        r.steps
            .iter()
            .any(|s| s.id == "reply" && s.status == StepOutcome::Completed)
    );
}

#[tokio::test]
async fn an_output_naming_no_route_fails_the_step_and_skips_every_route_when_the_run_goes_on() {
    let (r, _) = run_picking(support("sales")).await;
    assert_eq!(r.status, RunStatus::Failed);
    let error = r.error.unwrap();
    assert!(
        error.contains(
            "router chose \"sales\", which is not one of its routes (billing, technical)"
        ),
        "{error}"
    );

    let mut wf = support("sales");
    wf["steps"][0]["continueOnError"] = json!(true);
    let (r, mut skips) = run_picking(wf).await;
    assert_eq!(r.status, RunStatus::Completed);
    skips.sort();
    let why = "router \"triage\" failed";
    assert_eq!(
        skips,
        skipped(&[("debug", why), ("invoice", why), ("refund", why)])
    );
}

#[tokio::test]
async fn a_router_that_does_not_run_runs_none_of_its_routes() {
    let mut wf = support("billing");
    wf["steps"][0]["condition"] = json!("{{ false }}");
    let (_, mut skips) = run_picking(wf).await;
    skips.sort();
    let why = "router \"triage\" did not run";
    assert_eq!(skips[0], ("debug".to_string(), why.to_string()));
    assert_eq!(skips.len(), 4, "{skips:?}");
}

fn errors(wf: &Value) -> Vec<(DiagnosticCode, String, String)> {
    compile(wf, &registry(), Mode::Strict)
        .diagnostics
        .into_iter()
        .filter(|d| d.severity == crate::diagnostic::Severity::Error)
        .map(|d| (d.code, d.field.unwrap_or_default(), d.message))
        .collect()
}

#[test]
fn bad_routes_are_validation_errors_naming_the_field() {
    let mut wf = support("billing");
    wf["steps"][0]["inputs"]["routes"][1]["id"] = json!("billing");
    let e = errors(&wf);
    assert_eq!(e[0].0, DiagnosticCode::DuplicateId);
    assert_eq!(e[0].1, "inputs.routes[1].id");

    let mut wf = support("billing");
    wf["steps"][0]["inputs"]["routes"][1]["steps"] = json!(["debgu"]);
    let e = errors(&wf);
    assert_eq!(e[0].0, DiagnosticCode::UnknownStepRef);
    assert_eq!(e[0].1, "inputs.routes[1].steps");
    assert!(e[0].2.contains("did you mean \"debug\""), "{}", e[0].2);

    let mut wf = support("billing");
    wf["steps"][0]["inputs"]["routes"][1]["steps"] = json!(["debug", "refund"]);
    let e = errors(&wf);
    assert_eq!(e[0].1, "inputs.routes[1].steps");
    assert!(e[0].2.contains("route \"billing\" lists too"), "{}", e[0].2);

    let mut wf = support("billing");
    wf["steps"][0]["inputs"]["fallback"] = json!("sales");
    let e = errors(&wf);
    assert_eq!(e[0].1, "inputs.fallback");
    assert!(e[0].2.contains("billing, technical"), "{}", e[0].2);

    let mut wf = support("billing");
    wf["steps"][0]["inputs"]["routes"][0]["id"] = json!("{{ inputs.x }}");
    assert_eq!(errors(&wf)[0].1, "inputs.routes[0].id");

    let mut wf = support("billing");
    wf["steps"][0]["forEach"] = json!("{{ [1, 2] }}");
    assert_eq!(errors(&wf)[0].1, "forEach");
}

#[test]
fn each_route_is_an_edge_labelled_with_its_id() {
    let reg = registry();
    let plan = compile(&support("billing"), &reg, Mode::Strict)
        .plan
        .unwrap();
    let mut routes: Vec<(String, String)> = plan
        .edges
        .iter()
        .filter(|e| e.kind == crate::compile::DependencyKind::Route)
        .map(|e| (e.label.clone(), plan.steps[e.to].id.clone()))
        .collect();
    routes.sort();
    assert_eq!(
        routes,
        skipped(&[
            ("billing", "invoice"),
            ("billing", "refund"),
            ("technical", "debug")
        ])
    );
}
