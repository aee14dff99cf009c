//! docs/mcp.md is generated from the server's own listing; regenerate it with
//! `VAI_UPDATE_GENERATED=1 cargo test -p vai-mcp --test mcp reference`.

use super::*;

#[test]
fn reference_doc_matches_the_code() {
    let providers = Arc::new(Providers::none(Settings::default()));
    let registry = Arc::new(vai_tools::registry(providers, Default::default()));
    let limits = vai_workflow::Limits::DEFAULT;
    let server = McpServer::new(McpSettings {
        runs: RunManager::new(registry.clone(), None, RunBudget::default(), limits),
        registry,
        // The built-ins and examples only: what every `vai mcp` offers.
        library: vai_runtime::builtin::library(None).unwrap(),
        before_tool: None,
        run_limits: limits,
        with_client_llm: None,
        read_only: false,
        max_tool_calls: 4,
        name: "vai".into(),
        version: "test".into(),
    });
    let generated = server.listing().markdown();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/mcp.md");
    if std::env::var_os("VAI_UPDATE_GENERATED").is_some() {
        std::fs::write(&path, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "{} is out of date: run VAI_UPDATE_GENERATED=1 cargo test -p vai-mcp --test mcp reference",
        path.display()
    );
}
