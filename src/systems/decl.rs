//! A parameter's declaration: its type, range, default, what it needs and
//! what it means. Every check of a value a spec gives, every stand-in and
//! every listing reads it from here.

use super::value::{ParamError, ParamValue};

/// A parameter's type and allowed values.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamKind {
    /// A whole number from `lo` to `hi`.
    Int {
        /// Smallest allowed.
        lo: i64,
        /// Largest allowed.
        hi: i64,
    },
    /// A real number from `lo` to `hi` (whole numbers accepted).
    Real {
        /// Smallest allowed.
        lo: f64,
        /// Largest allowed.
        hi: f64,
    },
    /// true or false.
    Flag,
    /// One of these words.
    Choice(&'static [&'static str]),
    /// Text the rule reads itself (a damage value, an Ammo Roll).
    Text {
        /// A valid example.
        example: &'static str,
    },
    /// A preset name from a catalogue, or `custom`; its stats fill in the
    /// parameters named `prefix` + stat that the spec leaves out.
    Preset {
        /// The catalogue.
        catalogue: &'static str,
        /// Prefix of the parameters it fills (`rammer_`, or empty).
        prefix: String,
    },
}

/// Whether a parameter must be given.
#[derive(Clone, Debug, PartialEq)]
pub enum Need {
    /// Always needed (possibly from a preset).
    Required,
    /// Taken as this value when not given.
    Default(&'static str),
    /// Not needed; absent means "none" or "off", or the rule says when it
    /// is needed.
    Optional,
}

/// One parameter of a scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamDecl {
    /// Name used in specs.
    pub name: String,
    /// Type and allowed values.
    pub kind: ParamKind,
    /// Whether it must be given.
    pub need: Need,
    /// What it means, in a line.
    pub about: String,
    /// The seed section it comes from.
    pub seed: &'static str,
    /// Other parameters a value of this one is used with: each set to a
    /// value, set at all, or left unset; a run refuses it otherwise. `krunch new` and `krunch list` show them, and a test
    /// runs every commented template value together with them.
    pub needs: Vec<(String, Needed)>,
}

/// How a value needs another parameter ([`ParamDecl::needs`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Needed {
    /// Set to this value (`fire_mode = "full_auto"`).
    Is(&'static str),
    /// Set to any value it takes, such as this one (a crew of 1 or more).
    Any(&'static str),
    /// Left unset (the two are alternatives).
    Unset,
}

impl Needed {
    /// The value to set, for the template's test and `krunch new`, or
    /// `None` to leave it unset.
    pub fn value(&self) -> Option<&'static str> {
        match self {
            Needed::Is(v) | Needed::Any(v) => Some(v),
            Needed::Unset => None,
        }
    }
}

impl ParamDecl {
    fn of(name: impl Into<String>, kind: ParamKind) -> Self {
        ParamDecl {
            name: name.into(),
            kind,
            need: Need::Optional,
            about: String::new(),
            seed: "",
            needs: Vec::new(),
        }
    }

    /// Used only with `other` set to `value` (Sustained Fire dice with
    /// `fire_mode = "full_auto"`).
    pub fn needs(mut self, other: impl Into<String>, value: &'static str) -> Self {
        self.needs.push((other.into(), Needed::Is(value)));
        self
    }

    /// Used only with `other` given, at any value it takes, such as
    /// `example` (a crew's stats with a crew).
    pub fn needs_any(mut self, other: impl Into<String>, example: &'static str) -> Self {
        self.needs.push((other.into(), Needed::Any(example)));
        self
    }

    /// Used only with `other` left unset (the two are alternatives).
    pub fn needs_unset(mut self, other: impl Into<String>) -> Self {
        self.needs.push((other.into(), Needed::Unset));
        self
    }

    /// "required", "default 3" or "optional", without what it is used with.
    pub fn need_alone_text(&self) -> String {
        match &self.need {
            Need::Required => "required".into(),
            Need::Default(v) => format!("default {v}"),
            Need::Optional => "optional".into(),
        }
    }

    /// What it is used with, as `krunch new` and `krunch list` say it
    /// (`with crew = 1`), or empty.
    pub fn needs_text(&self) -> String {
        self.needs
            .iter()
            .map(|(name, needed)| {
                // as a spec writes it: numbers and flags bare, words quoted
                let spec = |v: &str| {
                    if v.parse::<f64>().is_ok() || ["true", "false"].contains(&v) {
                        format!("{name} = {v}")
                    } else {
                        format!("{name} = \"{v}\"")
                    }
                };
                match needed {
                    Needed::Is(v) => format!("with {}", spec(v)),
                    Needed::Any(v) => format!("with {name} given (e.g. {})", spec(v)),
                    Needed::Unset => format!("without {name}"),
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// A whole number from `lo` to `hi`.
    pub fn int(name: impl Into<String>, lo: i64, hi: i64) -> Self {
        Self::of(name, ParamKind::Int { lo, hi })
    }

    /// A real number from `lo` to `hi`.
    pub fn real(name: impl Into<String>, lo: f64, hi: f64) -> Self {
        Self::of(name, ParamKind::Real { lo, hi })
    }

    /// A flag, false when not given.
    pub fn flag(name: impl Into<String>) -> Self {
        Self::of(name, ParamKind::Flag)
    }

    /// One of `values`.
    pub fn choice(name: impl Into<String>, values: &'static [&'static str]) -> Self {
        Self::of(name, ParamKind::Choice(values))
    }

    /// Text the rule parses, with a valid example.
    pub fn text(name: impl Into<String>, example: &'static str) -> Self {
        Self::of(name, ParamKind::Text { example })
    }

    /// A preset of `catalogue` filling parameters named `prefix` + stat.
    pub fn preset(name: impl Into<String>, catalogue: &'static str, prefix: &str) -> Self {
        Self::of(
            name,
            ParamKind::Preset {
                catalogue,
                prefix: prefix.to_string(),
            },
        )
    }

    /// Must be given.
    pub fn required(mut self) -> Self {
        self.need = Need::Required;
        self
    }

    /// Taken as `value` when not given.
    pub fn default(mut self, value: &'static str) -> Self {
        self.need = Need::Default(value);
        self
    }

    /// What it means.
    pub fn about(mut self, about: impl Into<String>) -> Self {
        self.about = about.into();
        self
    }

    /// The seed section it comes from.
    pub fn seed(mut self, section: &'static str) -> Self {
        self.seed = section;
        self
    }

    /// `value` checked against the declared type and range; words are
    /// lower-cased and trimmed.
    pub fn check(&self, value: &ParamValue) -> Result<ParamValue, ParamError> {
        let name = &self.name;
        let bad = |what: &str| {
            Err(ParamError::new(
                name.clone(),
                format!("expected {what}, got '{value}'"),
            ))
        };
        match (&self.kind, value) {
            (ParamKind::Int { lo, hi }, ParamValue::Int(v)) => {
                if (lo..=hi).contains(&v) {
                    Ok(value.clone())
                } else {
                    Err(ParamError::new(
                        name.clone(),
                        format!("{v} is impossible: must be from {lo} to {hi}"),
                    ))
                }
            }
            (ParamKind::Int { .. }, _) => bad("a whole number"),
            (ParamKind::Real { lo, hi }, ParamValue::Int(_) | ParamValue::Float(_)) => {
                let v = match value {
                    ParamValue::Int(i) => *i as f64,
                    ParamValue::Float(f) => *f,
                    _ => unreachable!("matched above"),
                };
                if v.is_finite() && (*lo..=*hi).contains(&v) {
                    Ok(value.clone())
                } else {
                    Err(ParamError::new(
                        name.clone(),
                        format!("{v} is impossible: must be from {lo} to {hi}"),
                    ))
                }
            }
            (ParamKind::Real { .. }, _) => bad("a number"),
            (ParamKind::Flag, ParamValue::Bool(_)) => Ok(value.clone()),
            (ParamKind::Flag, _) => bad("true or false"),
            (ParamKind::Choice(allowed), ParamValue::Str(_) | ParamValue::Int(_)) => {
                let w = value.to_string().trim().to_ascii_lowercase();
                if allowed.contains(&w.as_str()) {
                    Ok(ParamValue::Str(w))
                } else {
                    Err(ParamError::new(
                        name.clone(),
                        format!(
                            "'{w}' is not one of: {}{}",
                            allowed.join(", "),
                            did_you_mean(&w, allowed.iter().copied())
                        ),
                    ))
                }
            }
            (ParamKind::Choice(allowed), _) => bad(&format!("one of {}", allowed.join(", "))),
            (ParamKind::Text { .. } | ParamKind::Preset { .. }, ParamValue::Str(s)) => {
                Ok(ParamValue::Str(s.trim().to_ascii_lowercase()))
            }
            (ParamKind::Text { .. }, ParamValue::Int(_)) => Ok(value.clone()),
            (ParamKind::Text { example }, _) => bad(&format!("text such as \"{example}\"")),
            (ParamKind::Preset { .. }, _) => bad("a preset name"),
        }
    }

    /// A value of the right type, to stand in for a missing one while the
    /// rule is asked what else is missing.
    pub fn stand_in(&self) -> ParamValue {
        match &self.kind {
            ParamKind::Int { lo, hi } => ParamValue::Int((*lo.max(&1)).min(*hi)),
            ParamKind::Real { lo, .. } => ParamValue::Float(*lo),
            ParamKind::Flag => ParamValue::Bool(false),
            ParamKind::Choice(v) => ParamValue::Str(v[0].to_string()),
            ParamKind::Text { example } => ParamValue::from_text(example),
            ParamKind::Preset { .. } => ParamValue::Str("custom".into()),
        }
    }

    /// The type as `krunch list` and `docs/RULES.md` show it.
    pub fn type_text(&self) -> String {
        match &self.kind {
            ParamKind::Int { lo, hi } => format!("whole number {lo}..{hi}"),
            ParamKind::Real { lo, hi } => format!("number {lo}..{hi}"),
            ParamKind::Flag => "true/false".into(),
            ParamKind::Choice(v) => v.join(" | "),
            ParamKind::Text { example } => format!("text, e.g. \"{example}\""),
            ParamKind::Preset { catalogue, .. } => format!("{catalogue} preset or \"custom\""),
        }
    }

    /// Required, the default, or optional, as `krunch list` shows it.
    pub fn need_text(&self) -> String {
        let need = self.need_alone_text();
        if self.needs.is_empty() {
            need
        } else {
            format!("{need}, {}", self.needs_text())
        }
    }
}

/// ", did you mean 'x'?" for the closest of `known` to `word`, or nothing.
pub fn did_you_mean<'a>(word: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    known
        .into_iter()
        .map(|k| (strsim::normalized_damerau_levenshtein(word, k), k))
        .filter(|(score, _)| *score >= 0.6)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, k)| format!(" (did you mean '{k}'?)"))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each kind of declaration checks its values: the range's edges, the
    /// wrong type, a choice's words whatever their case.
    #[test]
    fn a_declaration_checks_type_and_range() {
        let int = ParamDecl::int("n", 1, 6);
        assert_eq!(int.check(&ParamValue::Int(1)), Ok(ParamValue::Int(1)));
        assert_eq!(int.check(&ParamValue::Int(6)), Ok(ParamValue::Int(6)));
        for bad in [
            ParamValue::Int(0),
            ParamValue::Int(7),
            ParamValue::Float(2.0),
        ] {
            assert!(int.check(&bad).is_err(), "{bad:?}");
        }
        let real = ParamDecl::real("x", 0.0, 1.0);
        assert_eq!(real.check(&ParamValue::Int(1)), Ok(ParamValue::Int(1)));
        assert!(real.check(&ParamValue::Float(f64::NAN)).is_err());
        assert!(real.check(&ParamValue::Float(1.5)).is_err());
        let choice = ParamDecl::choice("c", &["one", "two"]);
        assert_eq!(
            choice.check(&ParamValue::Str(" Two".into())),
            Ok(ParamValue::Str("two".into()))
        );
        assert!(choice.check(&ParamValue::Bool(true)).is_err());
        let text = ParamDecl::text("d", "d3");
        assert_eq!(text.check(&ParamValue::Int(2)), Ok(ParamValue::Int(2)));
        assert!(text.check(&ParamValue::Float(0.5)).is_err());
        assert_eq!(int.type_text(), "whole number 1..6");
        assert_eq!(choice.type_text(), "one | two");
        assert_eq!(ParamDecl::flag("f").need_text(), "optional");
        assert_eq!(int.clone().required().need_text(), "required");
        assert_eq!(int.clone().default("3").need_text(), "default 3");
        let crew = int
            .needs("fire_mode", "full_auto")
            .needs_any("crew", "1")
            .needs_unset("skill");
        assert_eq!(
            crew.need_text(),
            "optional, with fire_mode = \"full_auto\", with crew given (e.g. crew = 1), without skill"
        );
    }
}
