//! The `http` tool's declaration: its name, inputs, outputs and effects, and the bounds on a
//! request (timeout, redirects, body size).

use crate::args::NO_API_CALLS;
use serde_json::json;
use vai_workflow::input_schema::{InputSchema, JsonType, PropertySchema, WidgetFormat};
use vai_workflow::{ApiCalls, Category, Effects, ToolSpec};

pub(super) const NAME: &str = "http";

/// Largest response body kept; longer bodies are cut and the output carries a `warning`.
pub const MAX_BODY_BYTES: usize = 5 * 1024 * 1024;
pub const MAX_REDIRECTS: usize = 5;
pub const MAX_TIMEOUT_MS: u64 = 120_000;

const METHODS: [&str; 7] = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

pub fn spec() -> ToolSpec {
    ToolSpec {
        name: NAME,
        label: "HTTP request",
        category: Category::Integration,
        icon: "Http",
        description: "Call a web API or fetch a web page",
        help: "Sends one HTTP request and returns the status, headers and body; a 4xx or 5xx status is returned, not treated as a failure. JSON bodies are parsed (falling back to text), `responseType: \"text\"` keeps the raw text, and `extract: \"text\"` turns an HTML page into readable text. `body` is sent for POST, PUT and PATCH — objects as JSON. Only public addresses are reached: loopback, private, link-local and other non-public addresses (also when a name resolves to one) need their host named in `allowedHosts` of .vai.json or `--allow-host`; when `allowedHosts` is set, only its hosts are reachable. Up to 5 redirects are followed (each target checked again) unless `followRedirects` is false; bodies beyond 5 MB are cut with a `warning`.",
        input_schema: InputSchema::new()
            .required_input(
                "url",
                PropertySchema::of(JsonType::String)
                    .format(WidgetFormat::Uri)
                    .describe("http or https URL"),
            )
            .input(
                "method",
                PropertySchema::of(JsonType::String)
                    .choices(METHODS)
                    .defaults_to("GET"),
            )
            .input(
                "headers",
                PropertySchema::of(JsonType::Object)
                    .other_members(PropertySchema::of(JsonType::String))
                    .defaults_to(json!({}))
                    .describe("Request headers"),
            )
            .input(
                "body",
                PropertySchema::any().describe(
                    "Request body for POST, PUT and PATCH; objects and arrays are sent as JSON",
                ),
            )
            .input(
                "timeout",
                PropertySchema::of(JsonType::Integer)
                    .min(1u64)
                    .max(MAX_TIMEOUT_MS)
                    .defaults_to(30_000)
                    .describe("Milliseconds before the request is abandoned"),
            )
            .input(
                "responseType",
                PropertySchema::of(JsonType::String)
                    .choices(["json", "text"])
                    .defaults_to("json")
                    .describe("json parses the body when it is JSON; text keeps it as text"),
            )
            .input(
                "extract",
                PropertySchema::of(JsonType::String)
                    .choices(["text"])
                    .describe(
                        "\"text\": strip HTML tags, scripts and styles, leaving readable text",
                    ),
            )
            .input(
                "followRedirects",
                PropertySchema::of(JsonType::Boolean)
                    .defaults_to(true)
                    .describe("Follow up to 5 redirects"),
            ),
        outputs: &[
            ("status", "HTTP status code"),
            ("statusText", "standard reason phrase of the status"),
            ("headers", "response headers, lower-case names"),
            ("body", "parsed JSON, or text"),
            ("durationMs", "time taken, in milliseconds"),
            ("warning", "present when the body was cut at 5 MB"),
        ],
        deferred: &[],
        main_input: Some("url"),
        api_calls: ApiCalls {
            http: 1,
            ..NO_API_CALLS
        },
        // Any of METHODS may be sent to any allowed URL: DELETE and PUT can remove or replace
        // what the server holds, and POST is not idempotent.
        effects: Effects::MAY_CHANGE_REMOTE,
        optional_calls: &[],
        uses_store: false,
    }
}
