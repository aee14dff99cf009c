//! The JSON Schema subset a tool declares its inputs with, typed: the builder's forms, the tool
//! reference (docs/tools.md), the validator's required-input check and the tools' own defaults
//! all read this one declaration.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::{Number, Value};

/// The schema of a step's `inputs` object.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct InputSchema {
    #[serde(rename = "type")]
    pub kind: ObjectType,
    /// Every input the tool reads, in the order forms show them.
    #[serde(default)]
    #[cfg_attr(
        feature = "ts",
        ts(as = "std::collections::HashMap<String, PropertySchema>")
    )]
    pub properties: IndexMap<String, PropertySchema>,
    /// Inputs a step must set.
    #[serde(default)]
    pub required: Vec<String>,
}

/// The `"object"` of a schema's `type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum ObjectType {
    #[default]
    Object,
}

/// One input (or a nested member of one).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PropertySchema {
    /// Absent: any JSON value.
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<SchemaType>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The value the tool uses when the step leaves the input out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<Value>,
    /// The accepted values.
    #[serde(rename = "enum", default, skip_serializing_if = "Option::is_none")]
    pub choices: Option<Vec<Value>>,
    /// The schema of an array's elements.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items: Option<Box<PropertySchema>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        feature = "ts",
        ts(as = "Option<std::collections::HashMap<String, PropertySchema>>")
    )]
    pub properties: Option<IndexMap<String, PropertySchema>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub additional_properties: Option<AdditionalProperties>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimum: Option<Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub maximum: Option<Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_items: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_items: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
    /// Typical values, for hints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub examples: Option<Vec<Value>>,
    /// How the builder's form edits the value; absent: by its type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<WidgetFormat>,
}

/// A JSON type name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum JsonType {
    String,
    Number,
    Integer,
    Boolean,
    Array,
    Object,
    Null,
}

/// `"type"`: one JSON type or several.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(untagged)]
pub enum SchemaType {
    One(JsonType),
    Any(Vec<JsonType>),
}

/// `"additionalProperties"`: allowed or not, or the schema of every other member.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(untagged)]
pub enum AdditionalProperties {
    Allowed(bool),
    Schema(Box<PropertySchema>),
}

/// A widget hint for the builder's forms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum WidgetFormat {
    /// Long text: a prompt, a document.
    Multiline,
    /// A condition evaluated as an expression (`item.score > 0.5`), braces optional.
    Expression,
    /// An array of step ids (`conditional.then` / `else`).
    StepIds,
    /// A URL.
    Uri,
    /// A `router`'s routes: `[{id, description, steps}]`.
    Routes,
    /// An `evaluator`'s metrics: `[{name, description, range: {min, max}}]`.
    Metrics,
    /// An `agent`'s tools: vai tool names and workflow names.
    ToolNames,
}

impl Default for InputSchema {
    fn default() -> Self {
        Self::new()
    }
}

impl InputSchema {
    /// An object schema with no inputs yet; add them with [`InputSchema::input`] and
    /// [`InputSchema::required_input`], in the order forms show them.
    pub fn new() -> Self {
        Self {
            kind: ObjectType::Object,
            properties: IndexMap::new(),
            required: Vec::new(),
        }
    }

    /// Declare an optional input.
    pub fn input(mut self, name: &str, schema: PropertySchema) -> Self {
        self.properties.insert(name.to_string(), schema);
        self
    }

    /// Declare an input every step must set.
    pub fn required_input(mut self, name: &str, schema: PropertySchema) -> Self {
        self.required.push(name.to_string());
        self.input(name, schema)
    }

    /// The schema of a tool whose declaration is JSON; an error when it does not fit this subset.
    pub fn from_json(value: Value) -> Result<Self, serde_json::Error> {
        serde_json::from_value(value)
    }

    pub fn property(&self, name: &str) -> Option<&PropertySchema> {
        self.properties.get(name)
    }

    /// The declared default of input `name`.
    pub fn default_of(&self, name: &str) -> Option<&Value> {
        self.property(name)?.default.as_ref()
    }

    /// The JSON this schema serialises to.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// Building declarations: `PropertySchema::of(JsonType::Integer).describe("…").defaults_to(10)`.
impl PropertySchema {
    /// A value of one JSON type.
    pub fn of(kind: JsonType) -> Self {
        Self {
            kind: Some(SchemaType::One(kind)),
            ..Self::default()
        }
    }

    /// A value of any of `kinds`.
    pub fn one_of(kinds: &[JsonType]) -> Self {
        Self {
            kind: Some(SchemaType::Any(kinds.to_vec())),
            ..Self::default()
        }
    }

    /// Any JSON value.
    pub fn any() -> Self {
        Self::default()
    }

    pub fn describe(mut self, text: &str) -> Self {
        self.description = Some(text.to_string());
        self
    }

    /// The value the tool uses when a step leaves the input out (read back with
    /// [`InputSchema::default_of`]; the tool keeps no second copy).
    pub fn defaults_to(mut self, value: impl Into<Value>) -> Self {
        self.default = Some(value.into());
        self
    }

    pub fn choices<T: Into<Value>>(mut self, values: impl IntoIterator<Item = T>) -> Self {
        self.choices = Some(values.into_iter().map(Into::into).collect());
        self
    }

    pub fn min(mut self, n: impl Into<Number>) -> Self {
        self.minimum = Some(n.into());
        self
    }

    pub fn max(mut self, n: impl Into<Number>) -> Self {
        self.maximum = Some(n.into());
        self
    }

    pub fn items(mut self, schema: PropertySchema) -> Self {
        self.items = Some(Box::new(schema));
        self
    }

    pub fn min_items(mut self, n: u64) -> Self {
        self.min_items = Some(n);
        self
    }

    pub fn max_items(mut self, n: u64) -> Self {
        self.max_items = Some(n);
        self
    }

    /// A member of an object value.
    pub fn member(mut self, name: &str, schema: PropertySchema) -> Self {
        self.properties
            .get_or_insert_with(IndexMap::new)
            .insert(name.to_string(), schema);
        self
    }

    /// Members an object value must have.
    pub fn require(mut self, names: &[&str]) -> Self {
        self.required = Some(names.iter().map(|n| n.to_string()).collect());
        self
    }

    /// The schema of every member of an object value not declared with [`Self::member`].
    pub fn other_members(mut self, schema: PropertySchema) -> Self {
        self.additional_properties = Some(AdditionalProperties::Schema(Box::new(schema)));
        self
    }

    /// Members not declared with [`Self::member`] are allowed, whatever they hold.
    pub fn allow_other_members(mut self) -> Self {
        self.additional_properties = Some(AdditionalProperties::Allowed(true));
        self
    }

    pub fn pattern(mut self, regex: &str) -> Self {
        self.pattern = Some(regex.to_string());
        self
    }

    pub fn examples<T: Into<Value>>(mut self, values: impl IntoIterator<Item = T>) -> Self {
        self.examples = Some(values.into_iter().map(Into::into).collect());
        self
    }

    pub fn format(mut self, format: WidgetFormat) -> Self {
        self.format = Some(format);
        self
    }

    /// The declared JSON types (none: any).
    pub fn types(&self) -> Vec<JsonType> {
        match &self.kind {
            None => Vec::new(),
            Some(SchemaType::One(t)) => vec![*t],
            Some(SchemaType::Any(ts)) => ts.clone(),
        }
    }
}

impl JsonType {
    pub fn as_str(self) -> &'static str {
        match self {
            JsonType::String => "string",
            JsonType::Number => "number",
            JsonType::Integer => "integer",
            JsonType::Boolean => "boolean",
            JsonType::Array => "array",
            JsonType::Object => "object",
            JsonType::Null => "null",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn built_declarations_serialise_as_json_schema() {
        let schema = InputSchema::new()
            .required_input(
                "query",
                PropertySchema::of(JsonType::String)
                    .describe("text")
                    .format(WidgetFormat::Multiline),
            )
            .input(
                "limit",
                PropertySchema::of(JsonType::Integer)
                    .min(1u64)
                    .max(100u64)
                    .defaults_to(10),
            )
            .input(
                "then",
                PropertySchema::of(JsonType::Array)
                    .items(PropertySchema::of(JsonType::String))
                    .format(WidgetFormat::StepIds),
            )
            .input(
                "condition",
                PropertySchema::one_of(&[JsonType::String, JsonType::Boolean]),
            );
        let value = schema.to_json();
        assert_eq!(
            value,
            json!({
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "text", "format": "multiline"},
                    "limit": {"type": "integer", "default": 10, "minimum": 1, "maximum": 100},
                    "then": {"type": "array", "items": {"type": "string"}, "format": "step-ids"},
                    "condition": {"type": ["string", "boolean"]}
                },
                "required": ["query"]
            })
        );
        assert_eq!(InputSchema::from_json(value).unwrap(), schema);
        assert_eq!(schema.default_of("limit"), Some(&json!(10)));
        assert_eq!(schema.default_of("query"), None);
    }

    #[test]
    fn unknown_keywords_are_refused_rather_than_dropped() {
        let e =
            InputSchema::from_json(json!({"type": "object", "properties": {"a": {"oneOf": []}}}))
                .unwrap_err();
        assert!(e.to_string().contains("oneOf"), "{e}");
    }
}
