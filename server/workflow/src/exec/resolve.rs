//! Resolving a step's input template into the `Inputs` its tool receives, within the run's
//! value limit: what a template builds is charged as it is built, while values a sole template
//! reads from the context are borrowed (neither copied nor charged).

use crate::inputs::{Inputs, JoinGuard};
use crate::limits::{Budget, Limit, LimitError, Limits};
use crate::scope::Scope;
use crate::template::Template;
use serde_json::Value;
use std::borrow::Cow;

/// A template's value, borrowed from the template or the scope where it can be; what it builds
/// is charged to `budget`.
pub(super) fn borrowed<'a>(
    template: &'a Template,
    scope: &'a dyn Scope,
    budget: &Budget,
) -> Result<Option<Cow<'a, Value>>, Limit> {
    match template {
        Template::Literal(v) => Ok(Some(Cow::Borrowed(v))),
        Template::Sole(expr) => expr.eval_cow(scope, budget),
        other => Ok(other.resolve(scope, budget)?.map(Cow::Owned)),
    }
}

/// Resolve a step's input template to the inputs a tool receives. Literal values and values a
/// sole template reads from the context are borrowed, not copied. Everything the template builds
/// shares one value budget; a list input joined later by the tool is bounded by `guard`.
pub(super) fn resolve_inputs<'a>(
    template: &'a Template,
    scope: &'a dyn Scope,
    limits: &Limits,
    guard: &'a JoinGuard,
) -> Result<Inputs<'a>, String> {
    let budget = limits.value_budget();
    let fail = |field: &str, limit| LimitError::new(field, limit).to_string();
    let mut inputs = Inputs::new();
    match template {
        Template::Literal(Value::Object(map)) => {
            for (k, v) in map {
                inputs.insert(k.clone(), Cow::Borrowed(v));
            }
        }
        Template::Object(entries) => {
            for (k, t) in entries {
                match t {
                    // A list of templates (`["{{ a.output }}", "{{ b.output }}"]`) is kept as
                    // borrowed members, so tools such as merge copy only what they keep.
                    Template::Array(items)
                        if items
                            .iter()
                            .all(|i| matches!(i, Template::Sole(_) | Template::Literal(_))) =>
                    {
                        let members = items
                            .iter()
                            .map(|i| {
                                borrowed(i, scope, &budget)
                                    .map(|v| v.unwrap_or(Cow::Owned(Value::Null)))
                            })
                            .collect::<Result<_, _>>()
                            .map_err(|l| fail(&format!("inputs.{k}"), l))?;
                        inputs.insert_list(k.clone(), members, guard);
                    }
                    other => {
                        let value = borrowed(other, scope, &budget)
                            .map_err(|l| fail(&format!("inputs.{k}"), l))?;
                        if let Some(v) = value {
                            inputs.insert(k.clone(), v);
                        }
                    }
                }
            }
        }
        other => match other
            .resolve(scope, &budget)
            .map_err(|l| fail("inputs", l))?
        {
            Some(Value::Object(map)) => inputs = map.into(),
            None => {}
            Some(v) => return Err(format!("inputs resolved to {v}, not an object")),
        },
    }
    Ok(inputs)
}
