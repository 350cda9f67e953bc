//! Named parameters handed from a spec to a rule set. Reading a parameter
//! marks it used, so a rule set can reject any it did not understand.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
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

/// A parameter was missing, of the wrong type, impossible, or unknown.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct ParamError {
    /// The parameter's name.
    pub field: String,
    /// What is wrong with it.
    pub message: String,
}

impl ParamError {
    /// An error about `field`.
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        ParamError {
            field: field.into(),
            message: message.into(),
        }
    }
}

/// Parameters by name, remembering which were read.
#[derive(Clone, Debug, Default)]
pub struct Params {
    values: BTreeMap<String, ParamValue>,
    used: RefCell<BTreeSet<String>>,
}

impl Params {
    /// Empty parameters.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets `name` (later sets override earlier ones).
    pub fn set(&mut self, name: impl Into<String>, value: ParamValue) {
        self.values.insert(name.into(), value);
    }

    /// The names and values.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &ParamValue)> {
        self.values.iter()
    }

    fn get(&self, name: &str) -> Option<&ParamValue> {
        let v = self.values.get(name);
        if v.is_some() {
            self.used.borrow_mut().insert(name.to_string());
        }
        v
    }

    /// Whether `name` is given (does not mark it used).
    pub fn has(&self, name: &str) -> bool {
        self.values.contains_key(name)
    }

    /// An optional whole number within `lo..=hi`.
    pub fn int(&self, name: &str, lo: i64, hi: i64) -> Result<Option<i64>, ParamError> {
        match self.get(name) {
            None => Ok(None),
            Some(ParamValue::Int(v)) if (lo..=hi).contains(v) => Ok(Some(*v)),
            Some(ParamValue::Int(v)) => Err(ParamError::new(
                name,
                format!("{v} is impossible: must be from {lo} to {hi}"),
            )),
            Some(other) => Err(ParamError::new(
                name,
                format!("expected a whole number, got '{other}'"),
            )),
        }
    }

    /// An optional non-negative real number (whole numbers accepted).
    pub fn real(&self, name: &str, hi: f64) -> Result<Option<f64>, ParamError> {
        let v = match self.get(name) {
            None => return Ok(None),
            Some(ParamValue::Int(v)) => *v as f64,
            Some(ParamValue::Float(v)) => *v,
            Some(other) => {
                return Err(ParamError::new(
                    name,
                    format!("expected a number, got '{other}'"),
                ));
            }
        };
        if !(0.0..=hi).contains(&v) {
            return Err(ParamError::new(
                name,
                format!("{v} is impossible: must be from 0 to {hi}"),
            ));
        }
        Ok(Some(v))
    }

    /// An optional flag.
    pub fn flag(&self, name: &str) -> Result<Option<bool>, ParamError> {
        match self.get(name) {
            None => Ok(None),
            Some(ParamValue::Bool(b)) => Ok(Some(*b)),
            Some(other) => Err(ParamError::new(
                name,
                format!("expected true or false, got '{other}'"),
            )),
        }
    }

    /// An optional word, or a number given as a word (`"4"`, `"auto"`).
    pub fn word(&self, name: &str) -> Result<Option<String>, ParamError> {
        match self.get(name) {
            None => Ok(None),
            Some(ParamValue::Str(s)) => Ok(Some(s.trim().to_ascii_lowercase())),
            Some(ParamValue::Int(v)) => Ok(Some(v.to_string())),
            Some(other) => Err(ParamError::new(
                name,
                format!("expected a word, got '{other}'"),
            )),
        }
    }

    /// An optional choice among `allowed`.
    pub fn choice(&self, name: &str, allowed: &[&str]) -> Result<Option<String>, ParamError> {
        match self.word(name)? {
            None => Ok(None),
            Some(w) if allowed.contains(&w.as_str()) => Ok(Some(w)),
            Some(w) => Err(ParamError::new(
                name,
                format!("'{w}' is not one of: {}", allowed.join(", ")),
            )),
        }
    }

    /// The first parameter that was given but never read.
    pub fn unused(&self) -> Option<String> {
        let used = self.used.borrow();
        self.values.keys().find(|k| !used.contains(*k)).cloned()
    }

    /// Fails on the first parameter nobody read, listing the known ones.
    pub fn reject_unused(&self, known: &[&str]) -> Result<(), ParamError> {
        match self.unused() {
            None => Ok(()),
            Some(k) => Err(ParamError::new(
                k.clone(),
                format!("unknown parameter '{k}' (known: {})", known.join(", ")),
            )),
        }
    }
}
