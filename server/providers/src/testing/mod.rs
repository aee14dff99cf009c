//! Test support shared by the provider modules' tests.

pub mod fake_http;
