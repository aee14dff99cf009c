//! What vai sends to and reads from Atlas, as data: the `$vectorSearch` pipeline, the vector
//! index definition, and the reading of `$listSearchIndexes` entries. Pure, so tests check them
//! without a server.

use super::convert::json_to_document;
use crate::{VectorIndex, VectorIndexInfo, VectorQuery};
use mongodb::bson::{Bson, Document, doc};
use mongodb::{SearchIndexModel, SearchIndexType};
use serde_json::Value;

/// Atlas's ceiling on `numCandidates`.
pub const MAX_NUM_CANDIDATES: usize = 10_000;
/// Output field carrying `{$meta: "vectorSearchScore"}`; stripped into `ScoredDocument::score`.
pub const SCORE_FIELD: &str = "score";
/// Stored fields declared as `filter` fields in the indexes vai creates, so a search `filter`
/// on them works. (Atlas refuses to pre-filter on fields the index does not declare.)
pub const FILTER_FIELDS: [&str; 1] = ["source"];

/// `[{$vectorSearch: …}, {$project: …}]` for `query`: `numCandidates` is the query's, raised to
/// `limit` and capped at [`MAX_NUM_CANDIDATES`]; the projection keeps the requested fields (and
/// `_id`) plus the score. A `filter` is read as Extended JSON; an invalid one is an error.
pub fn vector_search_pipeline(query: &VectorQuery) -> Result<Vec<Document>, String> {
    let num_candidates = query
        .num_candidates
        .max(query.limit)
        .min(MAX_NUM_CANDIDATES);
    let vector: Vec<Bson> = query
        .vector
        .iter()
        .map(|x| Bson::Double(f64::from(*x)))
        .collect();
    let mut search = doc! {
        "index": &query.index,
        "path": &query.path,
        "queryVector": vector,
        "numCandidates": num_candidates as i64,
        "limit": query.limit as i64,
    };
    if let Some(filter) = &query.filter {
        let filter = json_to_document(filter.clone()).map_err(|e| format!("filter: {e}"))?;
        search.insert("filter", filter);
    }
    let mut project = Document::new();
    for field in &query.fields {
        if field != "_id" && field != SCORE_FIELD {
            project.insert(field.as_str(), 1);
        }
    }
    project.insert(SCORE_FIELD, doc! {"$meta": "vectorSearchScore"});
    Ok(vec![
        doc! {"$vectorSearch": search},
        doc! {"$project": project},
    ])
}

/// The definition of a cosine vector index over `index.path`, plus the [`FILTER_FIELDS`].
pub fn vector_index_definition(index: &VectorIndex) -> Document {
    let mut fields = vec![Bson::Document(doc! {
        "type": "vector",
        "path": &index.path,
        "numDimensions": index.dimensions as i64,
        "similarity": "cosine",
    })];
    fields.extend(
        FILTER_FIELDS
            .iter()
            .filter(|path| **path != index.path)
            .map(|path| Bson::Document(doc! {"type": "filter", "path": *path})),
    );
    doc! {"fields": fields}
}

/// The `createSearchIndexes` model for `index` (type `vectorSearch`).
pub(crate) fn vector_index_model(index: &VectorIndex) -> SearchIndexModel {
    SearchIndexModel::builder()
        .name(index.name.clone())
        .index_type(SearchIndexType::VectorSearch)
        .definition(vector_index_definition(index))
        .build()
}

/// The aggregation stages of a pipeline given as JSON, each a one-operator object.
pub(crate) fn pipeline_stages(pipeline: Vec<Value>) -> Result<Vec<Document>, String> {
    pipeline
        .into_iter()
        .enumerate()
        .map(|(i, stage)| match stage {
            Value::Object(o) if o.len() == 1 && o.keys().all(|k| k.starts_with('$')) => {
                json_to_document(o).map_err(|e| format!("stage {i}: {e}"))
            }
            _ => Err(format!(
                "stage {i} must be an object with exactly one $-operator, like {{\"$match\": {{…}}}}"
            )),
        })
        .collect()
}

/// Where a search index stands, from its `$listSearchIndexes` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum IndexState {
    Queryable,
    /// Not queryable yet; the status Atlas reports (`PENDING`, `BUILDING`, …).
    Building(String),
    /// Atlas gave up building it; its message when it gave one.
    Failed(String),
}

pub(crate) fn index_state(entry: &Document) -> IndexState {
    let status = entry.get_str("status").unwrap_or("UNKNOWN");
    if status == "FAILED" {
        return IndexState::Failed(failure_message(entry).unwrap_or_default());
    }
    if entry.get_bool("queryable").unwrap_or(false) {
        IndexState::Queryable
    } else {
        IndexState::Building(status.to_string())
    }
}

/// The first message in an index entry or its per-host `statusDetail`.
fn failure_message(entry: &Document) -> Option<String> {
    if let Ok(message) = entry.get_str("message") {
        return Some(message.to_string());
    }
    entry
        .get_array("statusDetail")
        .ok()?
        .iter()
        .filter_map(Bson::as_document)
        .filter_map(|host| host.get_document("mainIndex").ok())
        .find_map(|main| main.get_str("message").ok().map(str::to_string))
}

/// The vector field of a `$listSearchIndexes` entry of type `vectorSearch`, if it is one.
pub(crate) fn vector_index_info(entry: &Document) -> Option<VectorIndexInfo> {
    if entry
        .get_str("type")
        .is_ok_and(|kind| kind != "vectorSearch")
    {
        return None;
    }
    let name = entry.get_str("name").ok()?.to_string();
    let definition = entry
        .get_document("latestDefinition")
        .or_else(|_| entry.get_document("definition"))
        .ok()?;
    let field = definition
        .get_array("fields")
        .ok()?
        .iter()
        .filter_map(Bson::as_document)
        .find(|f| f.get_str("type") == Ok("vector"))?;
    let dimensions = match field.get("numDimensions") {
        Some(Bson::Int32(n)) => usize::try_from(*n).ok(),
        Some(Bson::Int64(n)) => usize::try_from(*n).ok(),
        Some(Bson::Double(n)) if *n >= 0.0 && n.fract() == 0.0 => Some(*n as usize),
        _ => None,
    };
    Some(VectorIndexInfo {
        name,
        path: field.get_str("path").ok()?.to_string(),
        dimensions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Namespace;
    use serde_json::json;

    fn query(limit: usize, num_candidates: usize, filter: Option<Value>) -> VectorQuery {
        VectorQuery {
            namespace: Namespace::new("kb", "docs"),
            index: "vector_index".into(),
            path: "embedding".into(),
            vector: vec![0.5, -0.25],
            limit,
            num_candidates,
            filter: filter.map(|f| f.as_object().unwrap().clone()),
            fields: ["text", "content", "source", "metadata"]
                .map(String::from)
                .to_vec(),
        }
    }

    /// A BSON document as relaxed Extended JSON, for comparing with `json!`.
    fn as_json(doc: &Document) -> Value {
        Bson::Document(doc.clone()).into_relaxed_extjson()
    }

    #[test]
    fn vector_search_pipeline_searches_then_projects_fields_and_score() {
        let pipeline =
            vector_search_pipeline(&query(10, 150, Some(json!({"source": "guide.md"})))).unwrap();
        let stages: Vec<Value> = pipeline.iter().map(as_json).collect();
        assert_eq!(
            stages,
            vec![
                json!({"$vectorSearch": {
                    "index": "vector_index",
                    "path": "embedding",
                    "queryVector": [0.5, -0.25],
                    "numCandidates": 150,
                    "limit": 10,
                    "filter": {"source": "guide.md"}
                }}),
                json!({"$project": {
                    "text": 1, "content": 1, "source": 1, "metadata": 1,
                    "score": {"$meta": "vectorSearchScore"}
                }}),
            ]
        );
        assert!(matches!(
            pipeline[0]
                .get_document("$vectorSearch")
                .unwrap()
                .get("limit"),
            Some(Bson::Int64(10))
        ));
    }

    #[test]
    fn num_candidates_is_clamped_between_limit_and_atlas_ceiling() {
        let candidates = |limit, n| {
            let pipeline = vector_search_pipeline(&query(limit, n, None)).unwrap();
            let search = pipeline[0].get_document("$vectorSearch").unwrap().clone();
            assert!(!search.contains_key("filter"));
            search.get_i64("numCandidates").unwrap()
        };
        assert_eq!(candidates(10, 150), 150);
        assert_eq!(candidates(10, 3), 10);
        assert_eq!(candidates(10, 50_000), 10_000);
    }

    #[test]
    fn projection_never_repeats_id_or_score_and_filters_read_extended_json() {
        let mut q = query(
            5,
            75,
            Some(json!({"createdAt": {"$gte": {"$date": "2025-01-01T00:00:00Z"}}})),
        );
        q.fields = vec!["_id".into(), "score".into(), "text".into()];
        let pipeline = vector_search_pipeline(&q).unwrap();
        assert_eq!(
            as_json(&pipeline[1]),
            json!({"$project": {"text": 1, "score": {"$meta": "vectorSearchScore"}}})
        );
        let filter = pipeline[0]
            .get_document("$vectorSearch")
            .unwrap()
            .get_document("filter")
            .unwrap();
        assert!(matches!(
            filter.get_document("createdAt").unwrap().get("$gte"),
            Some(Bson::DateTime(_))
        ));
        let bad = vector_search_pipeline(&query(5, 75, Some(json!({"_id": {"$oid": "x"}}))));
        assert!(
            bad.unwrap_err()
                .starts_with("filter: not valid MongoDB Extended JSON")
        );
    }

    #[test]
    fn vector_index_definition_is_cosine_over_the_path_with_source_as_filter() {
        let index = VectorIndex {
            name: "vector_index".into(),
            path: "embedding".into(),
            dimensions: 1024,
        };
        assert_eq!(
            as_json(&vector_index_definition(&index)),
            json!({"fields": [
                {"type": "vector", "path": "embedding", "numDimensions": 1024, "similarity": "cosine"},
                {"type": "filter", "path": "source"}
            ]})
        );
        let model = vector_index_model(&index);
        assert_eq!(model.name.as_deref(), Some("vector_index"));
        assert!(matches!(
            model.index_type,
            Some(SearchIndexType::VectorSearch)
        ));
        assert_eq!(model.definition, vector_index_definition(&index));
    }

    #[test]
    fn pipeline_stages_must_be_single_operator_objects() {
        let stages = pipeline_stages(vec![
            json!({"$match": {"source": "a.md"}}),
            json!({"$limit": 5}),
        ])
        .unwrap();
        assert_eq!(stages.len(), 2);
        assert_eq!(stages[1].get_i32("$limit").unwrap(), 5);
        for bad in [
            json!({"$match": {}, "$limit": 1}),
            json!(["$match"]),
            json!({"match": {}}),
        ] {
            let err = pipeline_stages(vec![json!({"$limit": 1}), bad]).unwrap_err();
            assert!(
                err.starts_with("stage 1 must be an object with exactly one $-operator"),
                "{err}"
            );
        }
    }

    #[test]
    fn list_search_index_entries_give_state_and_vector_field() {
        let entry = doc! {
            "id": "66a", "name": "vector_index", "type": "vectorSearch",
            "status": "READY", "queryable": true,
            "latestDefinition": {"fields": [
                {"type": "filter", "path": "source"},
                {"type": "vector", "path": "embedding", "numDimensions": 512, "similarity": "cosine"}
            ]}
        };
        assert_eq!(index_state(&entry), IndexState::Queryable);
        assert_eq!(
            vector_index_info(&entry),
            Some(VectorIndexInfo {
                name: "vector_index".into(),
                path: "embedding".into(),
                dimensions: Some(512)
            })
        );
        let building = doc! {"name": "v", "status": "BUILDING", "queryable": false};
        assert_eq!(
            index_state(&building),
            IndexState::Building("BUILDING".into())
        );
        assert_eq!(
            index_state(&doc! {"name": "v"}),
            IndexState::Building("UNKNOWN".into())
        );
        let failed = doc! {"name": "v", "status": "FAILED", "statusDetail": [
            {"hostname": "h", "mainIndex": {"status": "FAILED", "message": "bad numDimensions"}}
        ]};
        assert_eq!(
            index_state(&failed),
            IndexState::Failed("bad numDimensions".into())
        );
        let text_index = doc! {"name": "default", "type": "search", "latestDefinition": {"mappings": {"dynamic": true}}};
        assert_eq!(vector_index_info(&text_index), None);
    }
}
