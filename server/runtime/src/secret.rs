//! The secret a local server asks every request for — the playground's access token, the MCP
//! server's bearer key: random by default, or given; compared in constant time.

use subtle::ConstantTimeEq;

/// A secret that may be used: 16 to 256 characters that need no escaping in a URL, a cookie or a
/// header.
#[derive(Clone)]
pub struct AccessToken(String);

/// Why a given value cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum TokenError {
    #[error("it must be at least 16 characters (it guards your providers)")]
    TooShort,
    #[error("it must be at most 256 characters")]
    TooLong,
    #[error("it may hold only letters, digits, '-', '_', '.' and '~'")]
    BadCharacter,
    #[error("cannot read random bytes for it: {0}")]
    Random(String),
}

impl AccessToken {
    /// 32 bytes from the operating system's random source, as 64 hex digits.
    pub fn generate() -> Result<Self, TokenError> {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).map_err(|e| TokenError::Random(e.to_string()))?;
        Ok(Self(bytes.iter().map(|b| format!("{b:02x}")).collect()))
    }

    /// A value given on the command line or in the environment.
    pub fn parse(text: &str) -> Result<Self, TokenError> {
        if text.len() < 16 {
            return Err(TokenError::TooShort);
        }
        if text.len() > 256 {
            return Err(TokenError::TooLong);
        }
        if !text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.~".contains(&b))
        {
            return Err(TokenError::BadCharacter);
        }
        Ok(Self(text.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Compared in constant time, so response timing says nothing about how much matched.
    pub fn matches(&self, presented: &str) -> bool {
        self.0.as_bytes().ct_eq(presented.as_bytes()).into()
    }
}

impl std::fmt::Debug for AccessToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AccessToken(…)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_plain_and_compared_whole() {
        assert!(matches!(
            AccessToken::parse("short"),
            Err(TokenError::TooShort)
        ));
        assert!(matches!(
            AccessToken::parse(&"a".repeat(257)),
            Err(TokenError::TooLong)
        ));
        assert!(matches!(
            AccessToken::parse("abcdefghijklmnop;"),
            Err(TokenError::BadCharacter)
        ));
        let token = AccessToken::parse("abcdefghijklmnop").unwrap();
        assert!(token.matches("abcdefghijklmnop"));
        assert!(!token.matches("abcdefghijklmnoq"));
        assert!(!token.matches("abcdefghijklmno"));
        assert_eq!(AccessToken::generate().unwrap().as_str().len(), 64);
    }
}
