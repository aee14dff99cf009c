//! What a `yield` step expects from a person: a JSON Schema of an object, read once when the
//! workflow is checked, and the check of an answer against it — every bad field named, so a
//! form, a terminal prompt or an MCP client can say what to fix.

use serde::Serialize;
use serde_json::{Map, Value};

/// The kinds of field an answer may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FieldType {
    String,
    Number,
    Integer,
    Boolean,
}

impl FieldType {
    fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "string" => Self::String,
            "number" => Self::Number,
            "integer" => Self::Integer,
            "boolean" => Self::Boolean,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::String => "string",
            Self::Number => "number",
            Self::Integer => "integer",
            Self::Boolean => "boolean",
        }
    }
}

/// One field of the answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    pub name: String,
    pub kind: FieldType,
    pub required: bool,
    pub description: Option<String>,
    pub choices: Option<Vec<Value>>,
    pub minimum: Option<f64>,
    pub maximum: Option<f64>,
    pub min_length: Option<u64>,
    pub max_length: Option<u64>,
}

/// The answer a `yield` step waits for.
#[derive(Debug, Clone, PartialEq)]
pub struct Expects {
    pub fields: Vec<Field>,
    /// The schema as written, for clients that draw their own form.
    pub schema: Value,
}

/// A field of an answer that does not satisfy the schema.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct FieldError {
    pub field: String,
    pub message: String,
}

/// Most fields an answer may declare.
pub const MAX_FIELDS: usize = 64;

impl Expects {
    /// No fields: any object is accepted (an approval with nothing to fill in).
    pub fn empty() -> Self {
        Self {
            fields: Vec::new(),
            schema: serde_json::json!({"type": "object", "properties": {}}),
        }
    }

    /// Read `schema`, which must be a JSON Schema of an object whose properties are strings,
    /// numbers, integers or booleans. `Err` names the first problem as `(field, message)`.
    pub fn parse(schema: &Value) -> Result<Self, (String, String)> {
        let obj = schema.as_object().ok_or_else(|| {
            (
                String::new(),
                "must be a JSON Schema object such as {\"type\": \"object\", \"properties\": {…}}"
                    .to_string(),
            )
        })?;
        if let Some(t) = obj.get("type")
            && t != "object"
        {
            return Err(("type".into(), format!("must be \"object\", not {t}")));
        }
        let properties = match obj.get("properties") {
            None => &Map::new(),
            Some(Value::Object(p)) => p,
            Some(_) => return Err(("properties".into(), "must be an object".into())),
        };
        if properties.len() > MAX_FIELDS {
            return Err((
                "properties".into(),
                format!("has {} fields; the limit is {MAX_FIELDS}", properties.len()),
            ));
        }
        let required: Vec<&str> = match obj.get("required") {
            None => Vec::new(),
            Some(Value::Array(a)) if a.iter().all(Value::is_string) => {
                a.iter().filter_map(Value::as_str).collect()
            }
            Some(_) => {
                return Err(("required".into(), "must be an array of field names".into()));
            }
        };
        if let Some(missing) = required.iter().find(|r| !properties.contains_key(**r)) {
            return Err((
                "required".into(),
                format!("names \"{missing}\", which is not among the properties"),
            ));
        }
        let mut fields = Vec::with_capacity(properties.len());
        for (name, prop) in properties {
            let at = format!("properties.{name}");
            let prop = prop
                .as_object()
                .ok_or_else(|| (at.clone(), "must be an object".to_string()))?;
            let choices = match prop.get("enum") {
                None => None,
                Some(Value::Array(a)) if !a.is_empty() => Some(a.clone()),
                Some(_) => {
                    return Err((format!("{at}.enum"), "must be a non-empty array".into()));
                }
            };
            let kind = match prop.get("type").and_then(Value::as_str) {
                Some(t) => FieldType::parse(t).ok_or_else(|| {
                    (
                        format!("{at}.type"),
                        format!("\"{t}\" is not one of string, number, integer, boolean"),
                    )
                })?,
                // An enum of strings needs no type.
                None if choices
                    .as_ref()
                    .is_some_and(|c| c.iter().all(Value::is_string)) =>
                {
                    FieldType::String
                }
                None => {
                    return Err((
                        format!("{at}.type"),
                        "is required: string, number, integer or boolean".into(),
                    ));
                }
            };
            let number = |key: &str| -> Result<Option<f64>, (String, String)> {
                match prop.get(key) {
                    None => Ok(None),
                    Some(v) => v
                        .as_f64()
                        .map(Some)
                        .ok_or_else(|| (format!("{at}.{key}"), "must be a number".into())),
                }
            };
            let length = |key: &str| -> Result<Option<u64>, (String, String)> {
                match prop.get(key) {
                    None => Ok(None),
                    Some(v) => v
                        .as_u64()
                        .map(Some)
                        .ok_or_else(|| (format!("{at}.{key}"), "must be a whole number".into())),
                }
            };
            let field = Field {
                name: name.clone(),
                kind,
                required: required.contains(&name.as_str()),
                description: prop
                    .get("description")
                    .and_then(Value::as_str)
                    .map(str::to_string),
                choices,
                minimum: number("minimum")?,
                maximum: number("maximum")?,
                min_length: length("minLength")?,
                max_length: length("maxLength")?,
            };
            if let Some(choices) = &field.choices
                && let Some(bad) = choices.iter().find(|c| !field.admits_type(c))
            {
                return Err((
                    format!("{at}.enum"),
                    format!("holds {bad}, which is not a {}", kind.as_str()),
                ));
            }
            fields.push(field);
        }
        Ok(Self {
            fields,
            schema: schema.clone(),
        })
    }

    /// Check `answer`: every problem, by field. An empty list means it is accepted.
    pub fn check(&self, answer: &Value) -> Vec<FieldError> {
        let Some(obj) = answer.as_object() else {
            return vec![FieldError {
                field: String::new(),
                message: "the answer must be an object".into(),
            }];
        };
        let mut errors = Vec::new();
        for field in &self.fields {
            match obj.get(&field.name) {
                None | Some(Value::Null) if field.required => errors.push(FieldError {
                    field: field.name.clone(),
                    message: "is required".into(),
                }),
                None | Some(Value::Null) => {}
                Some(v) => {
                    if let Err(message) = field.check(v) {
                        errors.push(FieldError {
                            field: field.name.clone(),
                            message,
                        });
                    }
                }
            }
        }
        errors
    }

    /// `text` read as the value of field `name`: a number, a boolean or a string as the field
    /// declares (for `--input k=v` and terminal prompts).
    pub fn coerce(&self, name: &str, text: &str) -> Value {
        let kind = self.fields.iter().find(|f| f.name == name).map(|f| f.kind);
        let t = text.trim();
        match kind {
            Some(FieldType::Number | FieldType::Integer) => t
                .parse::<f64>()
                .ok()
                .and_then(|n| {
                    if n.fract() == 0.0 && n.abs() < 9.0e15 {
                        Some(Value::from(n as i64))
                    } else {
                        serde_json::Number::from_f64(n).map(Value::Number)
                    }
                })
                .unwrap_or_else(|| Value::String(text.to_string())),
            Some(FieldType::Boolean) => match t.to_ascii_lowercase().as_str() {
                "true" | "yes" | "y" => Value::Bool(true),
                "false" | "no" | "n" => Value::Bool(false),
                _ => Value::String(text.to_string()),
            },
            _ => Value::String(text.to_string()),
        }
    }
}

impl Field {
    fn admits_type(&self, v: &Value) -> bool {
        match self.kind {
            FieldType::String => v.is_string(),
            FieldType::Number => v.is_number(),
            FieldType::Integer => v.as_f64().is_some_and(|n| n.fract() == 0.0),
            FieldType::Boolean => v.is_boolean(),
        }
    }

    fn check(&self, v: &Value) -> Result<(), String> {
        if !self.admits_type(v) {
            return Err(format!("must be a {}", self.kind.as_str()));
        }
        if let Some(choices) = &self.choices
            && !choices.contains(v)
        {
            let list: Vec<String> = choices.iter().map(Value::to_string).collect();
            return Err(format!("must be one of {}", list.join(", ")));
        }
        if let Some(n) = v.as_f64() {
            if let Some(min) = self.minimum
                && n < min
            {
                return Err(format!("must be at least {min}"));
            }
            if let Some(max) = self.maximum
                && n > max
            {
                return Err(format!("must be at most {max}"));
            }
        }
        if let Some(s) = v.as_str() {
            let len = s.chars().count() as u64;
            if let Some(min) = self.min_length
                && len < min
            {
                return Err(format!("must be at least {min} characters long"));
            }
            if let Some(max) = self.max_length
                && len > max
            {
                return Err(format!("must be at most {max} characters long"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Expects {
        Expects::parse(&json!({
            "type": "object",
            "properties": {
                "approved": {"type": "boolean"},
                "seats": {"type": "integer", "minimum": 1, "maximum": 9},
                "class": {"enum": ["economy", "business"]},
                "note": {"type": "string", "maxLength": 5}
            },
            "required": ["approved", "seats"]
        }))
        .unwrap()
    }

    #[test]
    fn a_good_answer_passes_and_each_bad_field_is_named() {
        let e = schema();
        assert!(e.check(&json!({"approved": true, "seats": 2})).is_empty());
        let errors = e.check(&json!({"seats": 12, "class": "first", "note": "too long"}));
        let fields: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, ["approved", "seats", "class", "note"]);
        assert_eq!(errors[0].message, "is required");
        assert_eq!(errors[1].message, "must be at most 9");
        assert!(errors[2].message.contains("\"economy\""));
        assert!(
            e.check(&json!({"approved": "yes", "seats": 1.5}))
                .iter()
                .all(|e| e.message.starts_with("must be a"))
        );
        assert_eq!(e.check(&json!([1])).len(), 1);
    }

    #[test]
    fn schemas_that_are_not_object_schemas_are_refused_with_the_field() {
        for (bad, at) in [
            (json!("yes"), ""),
            (json!({"type": "array"}), "type"),
            (
                json!({"properties": {"a": {"type": "date"}}}),
                "properties.a.type",
            ),
            (json!({"properties": {"a": {}}}), "properties.a.type"),
            (
                json!({"properties": {"a": {"type": "string"}}, "required": ["b"]}),
                "required",
            ),
            (
                json!({"properties": {"a": {"type": "integer", "enum": ["x"]}}}),
                "properties.a.enum",
            ),
        ] {
            let err = Expects::parse(&bad).unwrap_err();
            assert_eq!(err.0, at, "{bad}: {err:?}");
        }
    }

    #[test]
    fn typed_text_becomes_the_declared_type() {
        let e = schema();
        assert_eq!(e.coerce("seats", "3"), json!(3));
        assert_eq!(e.coerce("approved", "yes"), json!(true));
        assert_eq!(e.coerce("note", "12"), json!("12"));
        assert_eq!(e.coerce("seats", "many"), json!("many"));
    }
}
