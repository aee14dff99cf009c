//! A `router` step's routes: literal ids, unique, each listing steps that no other route lists.
//! The listed steps depend on the router (edges labelled with the route id), so they start
//! after it has chosen, and the engine skips the routes it did not choose.

use super::plan::{DependencyKind, Route, StepKind};
use super::step::StepCx;
use crate::control::MAX_ROUTES;
use crate::diagnostic::{Diagnostic, DiagnosticCode};
use crate::rules::is_valid_id;
use serde_json::Value;
use std::collections::HashMap;

impl StepCx<'_> {
    /// The routes of a `router` step; `None` (and `ok` false) when they cannot be read.
    pub(super) fn router_kind(&mut self) -> Option<StepKind> {
        let list = match self.step.inputs.get("routes") {
            Some(Value::Array(list)) if !list.is_empty() => list,
            // A missing input is reported with the other required inputs.
            None | Some(Value::Null) => return None,
            Some(_) => {
                self.route_error("inputs.routes", "must be a non-empty array of routes");
                return None;
            }
        };
        if list.len() > MAX_ROUTES {
            self.route_error(
                "inputs.routes",
                &format!("has {} routes; the limit is {MAX_ROUTES}", list.len()),
            );
            return None;
        }
        let mut routes: Vec<Route> = Vec::with_capacity(list.len());
        // Which route lists each step, to refuse a step in two routes.
        let mut owner: HashMap<usize, String> = HashMap::new();
        for (n, route) in list.iter().enumerate() {
            let at = format!("inputs.routes[{n}]");
            let Some(fields) = route.as_object() else {
                self.route_error(&at, "must be an object {id, description, steps}");
                continue;
            };
            let id = match fields.get("id") {
                Some(Value::String(id)) if is_valid_id(id) => id.clone(),
                Some(Value::String(id)) if id.contains("{{") => {
                    self.route_error(&format!("{at}.id"), "must be a literal id, not a template");
                    continue;
                }
                _ => {
                    self.route_error(
                        &format!("{at}.id"),
                        "must be an id of letters, digits, _ and - (e.g. \"billing\")",
                    );
                    continue;
                }
            };
            if routes.iter().any(|r| r.id == id) {
                self.fail(
                    Diagnostic::error(
                        DiagnosticCode::DuplicateId,
                        format!("router: two routes have the id \"{id}\""),
                    )
                    .field(format!("{at}.id")),
                );
                continue;
            }
            let field = format!("{at}.steps");
            let ids: &[Value] = match fields.get("steps") {
                None | Some(Value::Null) => &[],
                Some(Value::Array(a)) if a.iter().all(Value::is_string) => a,
                Some(_) => {
                    self.route_error(&field, "must be an array of step ids");
                    continue;
                }
            };
            let what = format!("router route \"{id}\"");
            let steps = self.listed_steps(ids, &field, DependencyKind::Route, &id, &what);
            for &j in &steps {
                if let Some(first) = owner.insert(j, id.clone()) {
                    let step = ids
                        .iter()
                        .filter_map(Value::as_str)
                        .find(|s| self.index.get(*s) == Some(&j))
                        .unwrap_or_default();
                    self.route_error(
                        &field,
                        &format!("lists step \"{step}\", which route \"{first}\" lists too; a step belongs to one route"),
                    );
                }
            }
            routes.push(Route { id, steps });
        }
        match self.step.inputs.get("fallback") {
            None | Some(Value::Null) => {}
            Some(Value::String(f)) if routes.iter().any(|r| &r.id == f) => {}
            Some(other) => {
                let ids: Vec<&str> = routes.iter().map(|r| r.id.as_str()).collect();
                self.route_error(
                    "inputs.fallback",
                    &format!("is {other}, not one of the route ids ({})", ids.join(", ")),
                );
            }
        }
        self.ok.then_some(StepKind::Router { routes })
    }

    fn route_error(&mut self, field: &str, message: &str) {
        self.fail(
            Diagnostic::error(
                DiagnosticCode::InvalidInput,
                format!("router: \"{field}\" {message}"),
            )
            .field(field.to_string()),
        );
    }
}
