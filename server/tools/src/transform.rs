//! The `transform` tool: reshape every element of an array — pick fields, rename them, or build
//! new ones from per-item templates.

use crate::args::{self, NO_API_CALLS};
use serde_json::{Map, Value};
use std::sync::LazyLock;
use vai_workflow::input_schema::{InputSchema, JsonType, PropertySchema};
use vai_workflow::limits::measure;
use vai_workflow::{
    Category, DeferredInput, DeferredKind, Effects, Template, Tool, ToolCall, ToolError,
    ToolFuture, ToolSpec,
};

const NAME: &str = "transform";
/// The output field limits name.
const RESULTS: &str = "output.results";

static DEFERRED: [DeferredInput; 1] = [DeferredInput {
    name: "mapping",
    kind: DeferredKind::Template,
    locals: &["item", "index"],
}];

static SPEC: LazyLock<ToolSpec> = LazyLock::new(spec);

/// Picks or maps the fields of each element.
pub struct Transform;

pub fn spec() -> ToolSpec {
    ToolSpec {
        name: NAME,
        label: "Transform",
        category: Category::ControlFlow,
        icon: "Transform",
        description: "Reshape each item of an array: pick fields or map them to new ones",
        help: "With `fields` (a list of keys), each object keeps only those keys. Otherwise `mapping` builds a new object per item: a plain string value names a field of the item to copy (`{\"title\": \"name\"}` copies `item.name`; when the item has no such field the string itself is stored), a template is resolved per item with `item` and `index` in scope (`{\"label\": \"{{ index }}: {{ item.title }}\"}`), and any other value is stored as it is. A template that does not use `item` or `index` is resolved once, and its string result names a field as a plain string would. `fields` wins over `mapping`; with neither, or an empty `fields`, items pass through. Items that are not objects pass through unchanged, except that a mapping using `item` or `index` is applied to them too.",
        input_schema: InputSchema::new()
            .required_input(
                "array",
                PropertySchema::of(JsonType::Array)
                    .items(PropertySchema::any())
                    .describe("The items to transform, e.g. {{ search.output.results }}"),
            )
            .input(
                "fields",
                PropertySchema::of(JsonType::Array)
                    .items(PropertySchema::of(JsonType::String))
                    .describe("Keys to keep from each object"),
            )
            .input(
                "mapping",
                PropertySchema::of(JsonType::Object)
                    .allow_other_members()
                    .describe("{newKey: oldKey or template}, e.g. {\"title\": \"name\", \"snippet\": \"{{ item.text }}\"}"),
            ),
        outputs: &[
            ("results", "the transformed items, in order"),
            ("resultCount", "number of items"),
        ],
        deferred: &DEFERRED,
        main_input: Some("array"),
        api_calls: NO_API_CALLS,
        effects: Effects::PURE,
        optional_calls: &[],
        uses_store: false,
    }
}

impl Tool for Transform {
    fn spec(&self) -> &ToolSpec {
        &SPEC
    }

    fn run<'a>(&'a self, call: ToolCall<'a>) -> ToolFuture<'a> {
        Box::pin(async move {
            let array = args::required_array(NAME, &call, "array")?;
            if let Some(fields) = fields(&call)? {
                let picked = pick(&call, array, &fields)?;
                return args::built_results(&call, picked);
            }
            let parsed;
            let template = match call.deferred_template("mapping") {
                Some(t) => Some(t),
                None => match call.input("mapping") {
                    None => None,
                    Some(raw) => {
                        parsed = Template::parse(raw).map_err(|errors| {
                            let first = errors.first().map(ToString::to_string).unwrap_or_default();
                            ToolError::invalid(NAME, "mapping", first)
                        })?;
                        Some(&parsed)
                    }
                },
            };
            let Some(template) = template else {
                let items: Vec<&Value> = array.iter().collect();
                return args::built_results(&call, call.copy_all(RESULTS, &items, 2)?);
            };
            let mapping = Mapping::compile(&call, template)?;
            let mut out = Vec::with_capacity(array.len());
            for (i, item) in array.iter().enumerate() {
                out.push(mapping.apply(&call, item, i)?);
            }
            Ok(args::results_output(out))
        })
    }
}

/// The `fields` input as a list of distinct keys; `None` when absent or empty. A comma-separated
/// string is accepted, as builders sometimes store lists that way.
fn fields(call: &ToolCall<'_>) -> Result<Option<Vec<String>>, ToolError> {
    let mut list: Vec<String> = match call.input("fields") {
        None => return Ok(None),
        Some(Value::String(s)) => s
            .split(',')
            .map(|f| f.trim().to_string())
            .filter(|f| !f.is_empty())
            .collect(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| {
                v.as_str().map(str::to_string).ok_or_else(|| {
                    ToolError::invalid(
                        NAME,
                        "fields",
                        format!("must list strings, got {}", args::kind(v)),
                    )
                })
            })
            .collect::<Result<_, _>>()?,
        Some(other) => {
            return Err(ToolError::invalid(
                NAME,
                "fields",
                format!("must be an array of keys, got {}", args::kind(other)),
            ));
        }
    };
    let mut seen = std::collections::HashSet::new();
    list.retain(|f| seen.insert(f.clone()));
    Ok((!list.is_empty()).then_some(list))
}

/// Keep only `fields` of each object, in the order listed; other items pass through. Every
/// copy is counted before it is made (a field listed many times is copied as often), and the
/// total charged to the call's budget once.
fn pick(call: &ToolCall<'_>, array: &[Value], fields: &[String]) -> Result<Vec<Value>, ToolError> {
    let limit = call.budget().limit();
    let remaining = call.budget().remaining();
    let over = |l| ToolError::limit(RESULTS, l);
    let mut bytes = 0u64;
    let mut kept: Vec<(&String, &Value)> = Vec::with_capacity(fields.len());
    let mut out = Vec::with_capacity(array.len());
    for item in array {
        match item {
            Value::Object(obj) => {
                kept.clear();
                kept.extend(fields.iter().filter_map(|f| obj.get_key_value(f.as_str())));
                bytes += 1 + kept.len().max(1) as u64;
                for (k, v) in &kept {
                    // `results[i].field`: three levels down.
                    bytes += k.len() as u64 + 3 + measure(v, 3, limit).map_err(over)?;
                }
                if bytes > remaining {
                    return Err(over(limit));
                }
                let mut picked = Map::with_capacity(kept.len());
                for (k, v) in kept.drain(..) {
                    picked.insert(k.clone(), v.clone());
                }
                out.push(Value::Object(picked));
            }
            other => {
                bytes += measure(other, 2, limit).map_err(over)?;
                if bytes > remaining {
                    return Err(over(limit));
                }
                out.push(other.clone());
            }
        }
    }
    call.charge(RESULTS, bytes)?;
    Ok(out)
}

/// How one mapping entry produces its value.
enum Entry<'t> {
    /// Copy the item's field of that name, or store the name itself when there is none.
    Field(String),
    /// Store this value.
    Const(Value),
    /// Resolve per item with `item` and `index` bound.
    PerItem(&'t Template),
}

/// A mapping prepared once per call.
enum Mapping<'t> {
    Entries {
        entries: Vec<(String, Entry<'t>)>,
        per_item: bool,
    },
    /// The whole mapping is one template using `item` or `index` (`"{{ item.meta }}"`).
    Whole(&'t Template),
}

fn uses_locals(template: &Template) -> bool {
    template
        .references()
        .iter()
        .any(|r| r.root == "item" || r.root == "index")
}

fn literal_entry<'t>(value: Value) -> Entry<'t> {
    match value {
        Value::String(s) => Entry::Field(s),
        other => Entry::Const(other),
    }
}

impl<'t> Mapping<'t> {
    fn compile(call: &ToolCall<'_>, template: &'t Template) -> Result<Self, ToolError> {
        let not_object = |v: &Value| {
            ToolError::invalid(
                NAME,
                "mapping",
                format!("must be an object, got {}", args::kind(v)),
            )
        };
        let entries: Vec<(String, Entry<'t>)> = match template {
            Template::Literal(Value::Object(map)) => map
                .iter()
                .map(|(k, v)| (k.clone(), literal_entry(v.clone())))
                .collect(),
            Template::Object(entries) => {
                let mut resolved = Vec::with_capacity(entries.len());
                for (k, t) in entries {
                    match t {
                        Template::Literal(v) => {
                            resolved.push((k.clone(), literal_entry(v.clone())));
                        }
                        t if uses_locals(t) => resolved.push((k.clone(), Entry::PerItem(t))),
                        t => {
                            let field = format!("inputs.mapping.{k}");
                            if let Some(v) = call.resolve_with(&field, t, &[])? {
                                resolved.push((k.clone(), literal_entry(v)));
                            }
                        }
                    }
                }
                resolved
            }
            t if uses_locals(t) => return Ok(Mapping::Whole(t)),
            t => match call.resolve_with("inputs.mapping", t, &[])? {
                Some(Value::Object(map)) => map
                    .into_iter()
                    .map(|(k, v)| (k, literal_entry(v)))
                    .collect(),
                Some(other) => return Err(not_object(&other)),
                None => return Err(not_object(&Value::Null)),
            },
        };
        let per_item = entries.iter().any(|(_, e)| matches!(e, Entry::PerItem(_)));
        Ok(Mapping::Entries { entries, per_item })
    }

    fn apply(&self, call: &ToolCall<'_>, item: &Value, i: usize) -> Result<Value, ToolError> {
        let index = Value::from(i);
        match self {
            Mapping::Whole(t) => match call.resolve_with(
                "inputs.mapping",
                t,
                &[("item", item), ("index", &index)],
            )? {
                Some(Value::Object(map)) => Ok(Value::Object(map)),
                other => Err(ToolError::invalid(
                    NAME,
                    "mapping",
                    format!(
                        "must resolve to an object, got {} for item {i}",
                        other.as_ref().map_or("undefined", args::kind)
                    ),
                )),
            },
            Mapping::Entries { entries, per_item } => {
                let fields = match item {
                    Value::Object(obj) => Some(obj),
                    _ if *per_item => None,
                    _ => return call.copy(RESULTS, item, 2),
                };
                let mut out = Map::with_capacity(entries.len());
                for (key, entry) in entries {
                    // Every value is charged: a constant or a field copied into each of many
                    // items multiplies.
                    let value = match entry {
                        Entry::Field(name) => match fields.and_then(|f| f.get(name)) {
                            Some(v) => call.copy(RESULTS, v, 3)?,
                            None => {
                                call.charge(RESULTS, name.len() as u64 + 2)?;
                                Value::String(name.clone())
                            }
                        },
                        Entry::Const(v) => call.copy(RESULTS, v, 3)?,
                        Entry::PerItem(t) => {
                            let field = format!("inputs.mapping.{key}");
                            let locals = [("item", item), ("index", &index)];
                            match call.resolve_with(&field, t, &locals)? {
                                Some(v) => v,
                                None => continue,
                            }
                        }
                    };
                    call.charge(RESULTS, key.len() as u64 + 4)?;
                    out.insert(key.clone(), value);
                }
                Ok(Value::Object(out))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::collections::HashMap;
    use vai_workflow::{Context, DeferredValue};

    fn context() -> Context {
        let mut scope = Context::new();
        scope.insert("inputs", json!({"field": "name", "tag": "kb"}));
        scope
    }

    async fn run_mapping(array: Value, mapping: Value) -> Result<Value, ToolError> {
        let scope = context();
        let defaults = json!({});
        let deferred = HashMap::from([(
            "mapping".to_string(),
            DeferredValue::Template(Template::parse(&mapping).unwrap()),
        )]);
        let inputs = json!({"array": array});
        let call = ToolCall::with_deferred(
            "t",
            inputs.as_object().unwrap().clone(),
            &defaults,
            &deferred,
            &scope,
        );
        Transform.run(call).await.map(|o| o.output)
    }

    async fn run(inputs: Value) -> Result<Value, ToolError> {
        let scope = context();
        let defaults = json!({});
        let call =
            ToolCall::standalone("t", inputs.as_object().unwrap().clone(), &defaults, &scope);
        Transform.run(call).await.map(|o| o.output)
    }

    #[tokio::test]
    async fn fields_pick_keys_in_order_and_win_over_mapping() {
        let out = run(json!({
            "array": [{"a": 1, "b": 2, "c": 3}, {"b": 5}, "str"],
            "fields": ["c", "a", "a"],
            "mapping": {"x": "a"}
        }))
        .await
        .unwrap();
        assert_eq!(
            out,
            json!({"results": [{"c": 3, "a": 1}, {}, "str"], "resultCount": 3})
        );
        let out = run(json!({"array": [{"a": 1, "b": 2}], "fields": "b, a"}))
            .await
            .unwrap();
        assert_eq!(out["results"], json!([{"b": 2, "a": 1}]));
    }

    #[tokio::test]
    async fn neither_fields_nor_mapping_is_identity() {
        let items = json!([{"a": 1}, 2, null]);
        assert_eq!(
            run(json!({"array": items})).await.unwrap()["results"],
            items
        );
        assert_eq!(
            run(json!({"array": items, "fields": []})).await.unwrap()["results"],
            items
        );
    }

    #[tokio::test]
    async fn plain_strings_copy_fields_like_the_reference() {
        let out = run_mapping(
            json!([{"name": "A", "score": 0.9}, {"score": 0.1}, 7]),
            json!({"title": "name", "s": "score", "kind": "static", "n": 1}),
        )
        .await
        .unwrap();
        assert_eq!(
            out["results"],
            json!([
                {"title": "A", "s": 0.9, "kind": "static", "n": 1},
                {"title": "name", "s": 0.1, "kind": "static", "n": 1},
                7
            ])
        );
    }

    #[tokio::test]
    async fn templates_resolve_per_item_with_item_and_index() {
        let out = run_mapping(
            json!([{"title": "x", "meta": {"page": 3}}, {"title": "name"}]),
            json!({
                "label": "{{ index }}: {{ item.title }}",
                "raw": "{{ item.title }}",
                "page": "{{ item.meta.page }}",
                "dynamic": "{{ inputs.field }}",
                "tag": "{{ inputs.tag }}"
            }),
        )
        .await
        .unwrap();
        assert_eq!(
            out["results"],
            json!([
                {"label": "0: x", "raw": "x", "page": 3, "dynamic": "name", "tag": "kb"},
                // A per-item template's value is stored as is, even when it names a field.
                {"label": "1: name", "raw": "name", "dynamic": "name", "tag": "kb"}
            ])
        );
        let out = run_mapping(
            json!([{"name": "Ann"}]),
            json!({"who": "{{ inputs.field }}"}),
        )
        .await
        .unwrap();
        assert_eq!(
            out["results"],
            json!([{"who": "Ann"}]),
            "a context template naming a field copies it"
        );
    }

    #[tokio::test]
    async fn item_templates_apply_to_non_objects() {
        let out = run_mapping(
            json!(["a", "b"]),
            json!({"text": "{{ item }}", "n": "{{ index + 1 }}"}),
        )
        .await
        .unwrap();
        assert_eq!(
            out["results"],
            json!([{"text": "a", "n": 1}, {"text": "b", "n": 2}])
        );
        let out = run_mapping(json!([{"meta": {"a": 1}}]), json!("{{ item.meta }}"))
            .await
            .unwrap();
        assert_eq!(out["results"], json!([{"a": 1}]));
    }

    #[tokio::test]
    async fn standalone_mapping_and_errors() {
        let out = run(json!({"array": [{"a": 1}], "mapping": {"b": "a", "i": "{{ index }}"}}))
            .await
            .unwrap();
        assert_eq!(out["results"], json!([{"b": 1, "i": 0}]));
        let err = run(json!({"array": [{"a": 1}], "mapping": "a"}))
            .await
            .unwrap_err();
        assert!(err.to_string().contains("must be an object"), "{err}");
        let err = run(json!({"array": [1], "fields": [1]})).await.unwrap_err();
        assert!(err.to_string().contains("\"fields\""), "{err}");
        let err = run(json!({"mapping": {}})).await.unwrap_err();
        assert!(err.to_string().contains("\"array\" is required"), "{err}");
    }

    #[test]
    fn mapping_is_declared_deferred() {
        let d = spec().deferred("mapping").copied().unwrap();
        assert_eq!(d.kind, DeferredKind::Template);
        assert_eq!(d.locals, ["item", "index"]);
    }
}
