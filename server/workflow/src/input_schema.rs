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
}

impl InputSchema {
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
