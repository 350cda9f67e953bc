//! [`GivenWord`]: a typed parameter for a word with a default whose rule
//! asks whether the spec gave it. `systems::typed::Given` reads numbers
//! and flags only; this is its word, kept here until `typed` has one.

use crate::systems::{FromParam, ParamError, Params};

/// A word with a default whose rule asks whether the spec gave it (a
/// 'custom' weapon's draws set without a 'custom' weapon, a template's
/// coverage set for a shot): as [`crate::systems::Given`].
#[derive(Clone, Debug, PartialEq)]
pub struct GivenWord {
    /// The word, trimmed and lower-cased: given, else the declared default.
    pub value: String,
    /// Whether the spec (or a preset) gave it.
    pub given: bool,
}

impl FromParam for GivenWord {
    fn from_param(p: &Params, name: &str) -> Result<Self, ParamError> {
        Ok(GivenWord {
            given: p.has(name),
            value: p.need_word(name)?,
        })
    }
}
