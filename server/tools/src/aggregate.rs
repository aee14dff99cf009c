//! The `aggregate` tool: run a MongoDB aggregation pipeline, refusing writes unless allowed.

use crate::args::{self, NO_API_CALLS};
use crate::retrieval::{COLLECTION, DB, namespace, object, provider_error, string};
use crate::served::Served;
use serde_json::Value;
use std::sync::{Arc, LazyLock};
use std::time::Instant;
use vai_providers::Providers;
use vai_workflow::input_schema::{InputSchema, JsonType, PropertySchema};
use vai_workflow::{Category, Effects, Tool, ToolCall, ToolError, ToolFuture, ToolSpec};

const NAME: &str = "aggregate";

/// Most stages a pipeline may have.
pub const MAX_STAGES: usize = 20;
/// Stages that write to the database.
const WRITE_STAGES: [&str; 2] = ["$out", "$merge"];

static SPEC: LazyLock<ToolSpec> = LazyLock::new(spec);

/// Runs an aggregation pipeline against a collection.
pub struct Aggregate {
    providers: Arc<Providers>,
}

impl Aggregate {
    pub fn new(providers: Arc<Providers>) -> Self {
        Aggregate { providers }
    }
}

pub fn spec() -> ToolSpec {
    ToolSpec {
        name: NAME,
        label: "Aggregate",
        category: Category::Management,
        icon: "AccountTree",
        description: "Run a MongoDB aggregation pipeline on a collection",
        help: "Runs `pipeline`, an array of up to 20 stage objects such as {\"$match\": {…}} or {\"$group\": {…}}, against the collection and returns the resulting documents with their count and the time taken. A pipeline given as a JSON string is parsed first. Stages that write (`$out`, `$merge`) are refused unless `allowWrites` is true, so a shared workflow cannot change your data by surprise. The database and collection come from the step, then the workflow defaults, .vai.json, VAI_DEFAULT_DB / VAI_DEFAULT_COLLECTION and the user config.",
        input_schema: InputSchema::new()
            .required_input(
                "pipeline",
                PropertySchema::of(JsonType::Array)
                    .items(PropertySchema::of(JsonType::Object))
                    .min_items(1)
                    .max_items(MAX_STAGES as u64)
                    .describe("Aggregation stages, e.g. [{\"$match\": {\"source\": \"a.md\"}}, {\"$limit\": 5}]"),
            )
            .input("db", string(DB))
            .input("collection", string(COLLECTION))
            .input(
                "allowWrites",
                PropertySchema::of(JsonType::Boolean)
                    .defaults_to(false)
                    .describe("Allow $out and $merge stages, which write to the database"),
            ),
        outputs: &[
            ("results", "the documents the pipeline produced"),
            ("count", "number of documents"),
            ("durationMs", "time the database took, in milliseconds"),
        ],
        deferred: &[],
        main_input: Some("pipeline"),
        api_calls: NO_API_CALLS,
        // With `allowWrites`, `$out` replaces a whole collection and `$merge` overwrites
        // matching documents, and a pipeline that makes fresh ids inserts again on every run.
        effects: Effects::MAY_CHANGE_REMOTE,
        optional_calls: &[],
        uses_store: true,
    }
}

impl Tool for Aggregate {
    fn spec(&self) -> &ToolSpec {
        &SPEC
    }

    fn run<'a>(&'a self, call: ToolCall<'a>) -> ToolFuture<'a> {
        Box::pin(async move {
            let mut call = call;
            let allow_writes = args::flag(&SPEC, &call, "allowWrites")?;
            let pipeline = pipeline(&mut call)?;
            check_stages(&pipeline, allow_writes)?;
            let namespace = namespace(NAME, &self.providers, &call)?;
            let store = self
                .providers
                .store(NAME)
                .map_err(|e| provider_error(NAME, e))?;

            let started = Instant::now();
            let results = store
                .aggregate(&namespace, pipeline)
                .await
                .map_err(|e| provider_error(NAME, e))?;
            let duration_ms = started.elapsed().as_millis() as u64;
            let mut served = Served::new(&self.providers.pricing);
            served.store(store.name());
            let count = results.len();
            Ok(served.output(object([
                ("results", Value::Array(results)),
                ("count", Value::from(count)),
                ("durationMs", Value::from(duration_ms)),
            ])))
        })
    }
}

/// The pipeline input: an array, or a string holding one as JSON.
fn pipeline(call: &mut ToolCall<'_>) -> Result<Vec<Value>, ToolError> {
    if let Some(Value::String(text)) = call.input("pipeline") {
        return match serde_json::from_str::<Value>(text) {
            Ok(Value::Array(stages)) => Ok(stages),
            Ok(_) => Err(ToolError::invalid(
                NAME,
                "pipeline",
                "must be an array of stages",
            )),
            Err(e) => Err(ToolError::invalid(
                NAME,
                "pipeline",
                format!("is not valid JSON: {e}"),
            )),
        };
    }
    args::take_array(NAME, call, "pipeline")
}

/// Shape and safety checks: 1–20 stages, each an object with one `$`-operator, and no write
/// stage (anywhere inside a stage) unless writes are allowed.
fn check_stages(pipeline: &[Value], allow_writes: bool) -> Result<(), ToolError> {
    if pipeline.is_empty() {
        return Err(ToolError::invalid(
            NAME,
            "pipeline",
            "must have at least one stage",
        ));
    }
    if pipeline.len() > MAX_STAGES {
        return Err(ToolError::invalid(
            NAME,
            "pipeline",
            format!(
                "has {} stages; at most {MAX_STAGES} are allowed",
                pipeline.len()
            ),
        ));
    }
    for (i, stage) in pipeline.iter().enumerate() {
        let operator = match stage.as_object() {
            Some(o) if o.len() == 1 => o.keys().next().filter(|k| k.starts_with('$')),
            _ => None,
        };
        if operator.is_none() {
            return Err(ToolError::invalid(
                NAME,
                "pipeline",
                format!(
                    "stage {i} must be an object with one $-operator, e.g. {{\"$match\": {{…}}}}"
                ),
            ));
        }
        if let Some(write) = write_stage(stage).filter(|_| !allow_writes) {
            return Err(ToolError::invalid(
                NAME,
                "pipeline",
                format!(
                    "stage {i} uses {write}, which writes to the database; set allowWrites to true to allow it"
                ),
            ));
        }
    }
    Ok(())
}

/// The first write operator used as a key anywhere in `value`.
fn write_stage(value: &Value) -> Option<&'static str> {
    match value {
        Value::Object(o) => o.iter().find_map(|(k, v)| {
            WRITE_STAGES
                .iter()
                .find(|w| **w == k.as_str())
                .copied()
                .or_else(|| write_stage(v))
        }),
        Value::Array(items) => items.iter().find_map(write_stage),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retrieval::testing::{Fakes, run};
    use serde_json::json;
    use vai_providers::{ProviderError, Settings};

    fn defaults() -> Value {
        json!({"db": "kb", "collection": "docs"})
    }

    async fn seeded() -> Fakes {
        let fakes = Fakes::new();
        fakes
            .seed("kb", "docs", json!([{"text": "a", "source": "x"}, {"text": "b", "source": "y"}, {"text": "c", "source": "x"}]))
            .await;
        fakes
    }

    #[tokio::test]
    async fn runs_the_pipeline_and_counts_results() {
        let fakes = seeded().await;
        let tool = Aggregate::new(fakes.providers());
        let out = run(
            &tool,
            json!({"pipeline": [{"$match": {"source": "x"}}, {"$sort": {"text": -1}}, {"$project": {"_id": 0, "text": 1}}]}),
            defaults(),
        )
        .await
        .unwrap();
        let obj = out.output.as_object().unwrap();
        assert_eq!(
            obj.keys().collect::<Vec<_>>(),
            ["results", "count", "durationMs"]
        );
        assert_eq!(obj["results"], json!([{"text": "c"}, {"text": "a"}]));
        assert_eq!(obj["count"], 2);
        assert!(obj["durationMs"].is_u64());
        assert_eq!(out.backend.as_deref(), Some("memory"));
    }

    #[tokio::test]
    async fn a_json_string_pipeline_is_parsed() {
        let fakes = seeded().await;
        let tool = Aggregate::new(fakes.providers());
        let out = run(&tool, json!({"pipeline": "[{\"$limit\": 1}]"}), defaults())
            .await
            .unwrap();
        assert_eq!(out.output["count"], 1);
        let err = run(&tool, json!({"pipeline": "[{"}), defaults())
            .await
            .unwrap_err();
        assert!(
            err.to_string()
                .starts_with("aggregate: input \"pipeline\" is not valid JSON")
        );
    }

    #[tokio::test]
    async fn writes_are_refused_unless_allowed_naming_the_stage() {
        let fakes = seeded().await;
        let tool = Aggregate::new(fakes.providers());
        let err = run(
            &tool,
            json!({"pipeline": [{"$match": {}}, {"$out": "copy"}]}),
            defaults(),
        )
        .await
        .unwrap_err();
        assert!(matches!(err, ToolError::InvalidInput { .. }));
        assert_eq!(
            err.to_string(),
            "aggregate: input \"pipeline\" stage 1 uses $out, which writes to the database; set allowWrites to true to allow it"
        );
        let nested = json!({"pipeline": [{"$facet": {"a": [{"$merge": {"into": "x"}}]}}]});
        let err = run(&tool, nested, defaults()).await.unwrap_err();
        assert!(err.to_string().contains("stage 0 uses $merge"), "{err}");
        assert!(fakes.store.pipelines().is_empty());

        // Allowed writes reach the store (which, being the in-memory fake, refuses $out itself).
        let err = run(
            &tool,
            json!({"pipeline": [{"$out": "copy"}], "allowWrites": true}),
            defaults(),
        )
        .await
        .unwrap_err();
        assert!(err.to_string().contains("supports only"), "{err}");
        assert_eq!(fakes.store.pipelines().len(), 1);
        // `$mergeObjects` is an expression, not a write.
        assert!(
            write_stage(&json!({"$group": {"_id": null, "m": {"$mergeObjects": "$metadata"}}}))
                .is_none()
        );
    }

    #[tokio::test]
    async fn stage_count_and_shape_are_checked() {
        let fakes = seeded().await;
        let tool = Aggregate::new(fakes.providers());
        let many: Vec<Value> = (0..21).map(|_| json!({"$limit": 1})).collect();
        let err = run(&tool, json!({"pipeline": many}), defaults())
            .await
            .unwrap_err();
        assert!(err.to_string().contains("has 21 stages; at most 20"));
        let err = run(&tool, json!({"pipeline": []}), defaults())
            .await
            .unwrap_err();
        assert!(err.to_string().contains("at least one stage"));
        let err = run(&tool, json!({"pipeline": [{"limit": 1}]}), defaults())
            .await
            .unwrap_err();
        assert!(
            err.to_string()
                .contains("stage 0 must be an object with one $-operator")
        );
        let err = run(&tool, json!({}), defaults()).await.unwrap_err();
        assert_eq!(err.to_string(), "aggregate: input \"pipeline\" is required");
    }

    #[tokio::test]
    async fn store_errors_and_missing_configuration() {
        let fakes = seeded().await;
        let tool = Aggregate::new(fakes.providers());
        fakes.store.fail_next(ProviderError::Network {
            provider: "mongodb".into(),
            message: "connection reset".into(),
        });
        let err = run(&tool, json!({"pipeline": [{"$limit": 1}]}), defaults())
            .await
            .unwrap_err();
        assert!(err.is_transient());
        let err = run(
            &tool,
            json!({"pipeline": [{"$limit": 1}]}),
            json!({"db": "kb"}),
        )
        .await
        .unwrap_err();
        assert!(
            err.to_string()
                .starts_with("aggregate: collection not specified")
        );
        let none = Aggregate::new(Arc::new(Providers::none(Settings::default())));
        let err = run(&none, json!({"pipeline": [{"$limit": 1}]}), defaults())
            .await
            .unwrap_err();
        assert!(matches!(err, ToolError::NotConfigured(_)));
    }
}
