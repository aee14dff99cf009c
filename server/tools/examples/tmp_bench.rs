use serde_json::{json, Value};
use std::collections::HashMap;
use std::time::Instant;
use vai_workflow::{Context, DeferredValue, Template, Condition, Tool, ToolCall};

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let make = |off: usize| -> Value { Value::Array((0..2000).map(|i| json!({"source": format!("doc-{}", i+off), "text": "lorem ipsum dolor sit amet consectetur", "score": (i as f64)/2000.0, "metadata": {"page": i, "tags": ["a","b"]}})).collect()) };
    let scope = Context::new();
    let defaults = json!({});
    let a = make(0); let b = make(1000);
    let n = 200;
    let t = Instant::now();
    for _ in 0..n {
        let inputs = json!({"arrays": [a.clone(), b.clone()], "dedup": true, "dedup_field": "source"});
        let call = ToolCall::standalone("m", inputs.as_object().unwrap().clone(), &defaults, &scope);
        let out = vai_tools::merge::Merge.run(call).await.unwrap();
        assert_eq!(out.output["resultCount"], 3000);
    }
    println!("merge field: {:?}/iter", t.elapsed()/n);
    let t = Instant::now();
    for _ in 0..n {
        let inputs = json!({"arrays": [a.clone(), b.clone()], "dedup": true});
        let call = ToolCall::standalone("m", inputs.as_object().unwrap().clone(), &defaults, &scope);
        vai_tools::merge::Merge.run(call).await.unwrap();
    }
    println!("merge whole: {:?}/iter", t.elapsed()/n);
    let t = Instant::now();
    for _ in 0..n { let _ = json!({"arrays": [a.clone(), b.clone()]}); }
    println!("clone baseline: {:?}/iter", t.elapsed()/n);
    let deferred = HashMap::from([("condition".to_string(), DeferredValue::Condition(Condition::parse("item.score > 0.5 && index % 2 == 0").unwrap()))]);
    let t = Instant::now();
    for _ in 0..n {
        let inputs = json!({"array": a.clone()});
        let call = ToolCall::with_deferred("f", inputs.as_object().unwrap().clone(), &defaults, &deferred, &scope);
        vai_tools::filter::Filter.run(call).await.unwrap();
    }
    println!("filter: {:?}/iter", t.elapsed()/n);
    let deferred = HashMap::from([("mapping".to_string(), DeferredValue::Template(Template::parse(&json!({"title": "source", "snippet": "{{ item.text }}", "page": "{{ item.metadata.page }}"})).unwrap()))]);
    let t = Instant::now();
    for _ in 0..n {
        let inputs = json!({"array": a.clone()});
        let call = ToolCall::with_deferred("f", inputs.as_object().unwrap().clone(), &defaults, &deferred, &scope);
        vai_tools::transform::Transform.run(call).await.unwrap();
    }
    println!("transform mapping: {:?}/iter", t.elapsed()/n);
    let t = Instant::now();
    for _ in 0..n {
        let inputs = json!({"array": a.clone(), "fields": ["source", "score"]});
        let call = ToolCall::standalone("f", inputs.as_object().unwrap().clone(), &defaults, &scope);
        vai_tools::transform::Transform.run(call).await.unwrap();
    }
    println!("transform fields: {:?}/iter", t.elapsed()/n);
    let text = "Lorem ipsum dolor sit amet. ".repeat(40000);
    let t = Instant::now();
    let c = vai_tools::chunk::chunk_text(&text, &Default::default()).unwrap();
    println!("chunk 1.1MB: {:?} ({} chunks)", t.elapsed(), c.len());
}
