//! Test support shared by the provider modules' tests.

pub(crate) mod fake_http;
