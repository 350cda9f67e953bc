//! A parameter's value and what can be wrong with one: the words every
//! layer above shares, below the declarations that check them.

use std::fmt;

/// One parameter value.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamValue {
    /// A whole number.
    Int(i64),
    /// A real number.
    Float(f64),
    /// A word or dice expression.
    Str(String),
    /// A flag.
    Bool(bool),
}

impl ParamValue {
    /// The value a spec would give `text`: whole number, real number, flag,
    /// or word.
    pub fn from_text(text: &str) -> ParamValue {
        if let Ok(i) = text.parse::<i64>() {
            ParamValue::Int(i)
        } else if let Ok(f) = text.parse::<f64>() {
            ParamValue::Float(f)
        } else if let Ok(b) = text.parse::<bool>() {
            ParamValue::Bool(b)
        } else {
            ParamValue::Str(text.to_string())
        }
    }
}

impl fmt::Display for ParamValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamValue::Int(v) => write!(f, "{v}"),
            ParamValue::Float(v) => write!(f, "{v}"),
            ParamValue::Str(v) => write!(f, "{v}"),
            ParamValue::Bool(v) => write!(f, "{v}"),
        }
    }
}

/// What is wrong with a parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamErrorKind {
    /// Needed but not given (after presets).
    Missing,
    /// Given but not declared by the scenario.
    Unknown,
    /// Given with the wrong type or an impossible value.
    Invalid,
}

/// A parameter was missing, of the wrong type, impossible, or unknown.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct ParamError {
    /// The parameter's name (the first, when several are missing).
    pub field: String,
    /// What is wrong with it.
    pub message: String,
    /// Missing, unknown or invalid.
    pub kind: ParamErrorKind,
    /// Every missing parameter, when `kind` is `Missing`.
    pub missing: Vec<String>,
}

impl ParamError {
    /// An invalid value of `field`.
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        ParamError {
            field: field.into(),
            message: message.into(),
            kind: ParamErrorKind::Invalid,
            missing: Vec::new(),
        }
    }

    /// `field` is needed and not given; `message` says what it is.
    pub fn missing(field: impl Into<String>, message: impl Into<String>) -> Self {
        let field = field.into();
        ParamError {
            missing: vec![field.clone()],
            field,
            message: message.into(),
            kind: ParamErrorKind::Missing,
        }
    }

    /// `field` is not a parameter of the scenario.
    pub fn unknown(field: impl Into<String>, message: impl Into<String>) -> Self {
        ParamError {
            field: field.into(),
            message: message.into(),
            kind: ParamErrorKind::Unknown,
            missing: Vec::new(),
        }
    }
}
