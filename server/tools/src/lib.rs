//! The step tools: one module per tool, each declaring its schema, category and icon.
