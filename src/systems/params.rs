//! Named parameters handed from a spec to a rule set, read through the
//! scenario's declarations: a parameter's type, range and default live in
//! its [`ParamDecl`] and nowhere else.

use super::decl::{Need, ParamDecl, ParamKind};
use super::value::{ParamError, ParamValue};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};

/// Parameters by name, read through the declarations they are bound to.
#[derive(Clone, Debug, Default)]
pub struct Params {
    values: BTreeMap<String, ParamValue>,
    decls: Arc<[ParamDecl]>,
    /// The names a rule has read, shared by every bound view and clone:
    /// how a report learns which rule variants a scenario uses.
    read: Arc<Mutex<BTreeSet<String>>>,
}

impl Params {
    /// Empty parameters.
    pub fn new() -> Self {
        Self::default()
    }

    /// Parameters from `name = value` texts, each read as a spec's value
    /// would be (a whole number, a number, true/false, or a word).
    pub fn from_pairs(pairs: &[(&str, &str)]) -> Params {
        let mut p = Params::new();
        for (name, value) in pairs {
            p.set(*name, ParamValue::from_text(value));
        }
        p
    }

    /// Sets `name` (later sets override earlier ones).
    pub fn set(&mut self, name: impl Into<String>, value: ParamValue) {
        self.values.insert(name.into(), value);
    }

    /// Removes `name`.
    pub fn remove(&mut self, name: &str) -> Option<ParamValue> {
        self.values.remove(name)
    }

    /// The names and values given.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &ParamValue)> {
        self.values.iter()
    }

    /// The value given for `name`, if any (no default applied).
    pub fn given(&self, name: &str) -> Option<&ParamValue> {
        self.note_read(name);
        self.values.get(name)
    }

    /// Whether `name` is given.
    pub fn has(&self, name: &str) -> bool {
        self.note_read(name);
        self.values.contains_key(name)
    }

    /// The same values read through `decls` (reads are noted for both).
    pub fn bound(&self, decls: impl Into<Arc<[ParamDecl]>>) -> Params {
        Params {
            values: self.values.clone(),
            decls: decls.into(),
            read: Arc::clone(&self.read),
        }
    }

    /// Every name read so far through these parameters, their bound views
    /// and their clones.
    pub fn names_read(&self) -> BTreeSet<String> {
        self.read
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    fn note_read(&self, name: &str) {
        let mut read = self
            .read
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if !read.contains(name) {
            read.insert(name.to_string());
        }
    }

    fn decl(&self, name: &str) -> Result<&ParamDecl, ParamError> {
        self.decls.iter().find(|d| d.name == name).ok_or_else(|| {
            ParamError::new(
                name,
                "internal error: the rule reads a parameter its scenario does not declare",
            )
        })
    }

    /// The checked value of `name`: given, else its declared default.
    fn value(&self, name: &str) -> Result<Option<ParamValue>, ParamError> {
        self.note_read(name);
        let decl = self.decl(name)?;
        match self.values.get(name) {
            Some(v) => decl.check(v).map(Some),
            None => match decl.need {
                Need::Default(text) => decl.check(&ParamValue::from_text(text)).map(Some),
                _ => Ok(None),
            },
        }
    }

    fn needed<T>(&self, name: &str, v: Option<T>) -> Result<T, ParamError> {
        v.ok_or_else(|| {
            let about = self.decl(name).map(|d| d.about.clone()).unwrap_or_default();
            ParamError::missing(name, format!("missing: set {name} ({about})"))
        })
    }

    /// A whole number (declared `int`).
    pub fn int(&self, name: &str) -> Result<Option<i64>, ParamError> {
        Ok(match self.value(name)? {
            Some(ParamValue::Int(v)) => Some(v),
            _ => None,
        })
    }

    /// A whole number that must be given.
    pub fn need_int(&self, name: &str) -> Result<i64, ParamError> {
        let v = self.int(name)?;
        self.needed(name, v)
    }

    /// A real number (declared `real`; whole numbers accepted).
    pub fn real(&self, name: &str) -> Result<Option<f64>, ParamError> {
        Ok(match self.value(name)? {
            Some(ParamValue::Int(v)) => Some(v as f64),
            Some(ParamValue::Float(v)) => Some(v),
            _ => None,
        })
    }

    /// A real number that must be given.
    pub fn need_real(&self, name: &str) -> Result<f64, ParamError> {
        let v = self.real(name)?;
        self.needed(name, v)
    }

    /// A flag; absent with no default reads as false.
    pub fn flag(&self, name: &str) -> Result<bool, ParamError> {
        Ok(matches!(self.value(name)?, Some(ParamValue::Bool(true))))
    }

    /// A word: a choice, a preset name or text (lower case, trimmed).
    pub fn word(&self, name: &str) -> Result<Option<String>, ParamError> {
        Ok(self
            .value(name)?
            .map(|v| v.to_string().trim().to_ascii_lowercase()))
    }

    /// A word that must be given.
    pub fn need_word(&self, name: &str) -> Result<String, ParamError> {
        let v = self.word(name)?;
        self.needed(name, v)
    }

    /// The declarations bound to these parameters.
    pub fn decls(&self) -> &[ParamDecl] {
        &self.decls
    }

    /// Whether `name` is declared as a choice including `word`.
    pub fn is_choice(&self, name: &str, word: &str) -> bool {
        self.decl(name)
            .is_ok_and(|d| matches!(d.kind, ParamKind::Choice(c) if c.contains(&word)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::ParamErrorKind;

    fn decls() -> Vec<ParamDecl> {
        vec![
            ParamDecl::int("wounds", 1, 10)
                .required()
                .about("the target's Wounds"),
            ParamDecl::int("range", 0, 48).default("12"),
            ParamDecl::real("alpha", 0.0, 1.0),
            ParamDecl::flag("cover"),
            ParamDecl::flag("charge").default("true"),
            ParamDecl::choice("policy", &["one", "all"]).default("one"),
            ParamDecl::text("damage", "d3"),
        ]
    }

    fn given(pairs: &[(&str, &str)]) -> Params {
        let mut p = Params::new();
        for (k, v) in pairs {
            p.set(*k, ParamValue::from_text(v));
        }
        p.bound(decls())
    }

    /// "3" is a whole number, "0.5" a real, "true" a flag, the rest words.
    #[test]
    fn text_reads_as_the_narrowest_type() {
        assert_eq!(ParamValue::from_text("3"), ParamValue::Int(3));
        assert_eq!(ParamValue::from_text("-2"), ParamValue::Int(-2));
        assert_eq!(ParamValue::from_text("0.5"), ParamValue::Float(0.5));
        assert_eq!(ParamValue::from_text("true"), ParamValue::Bool(true));
        assert_eq!(
            ParamValue::from_text("D6+1"),
            ParamValue::Str("D6+1".into())
        );
        assert_eq!(ParamValue::Float(0.5).to_string(), "0.5");
    }

    /// Given values are read as given; absent ones take their declared
    /// default, or are `None` (a flag: false); a required one names
    /// itself and what it is; words are lower-cased and trimmed; a real
    /// accepts a whole number.
    #[test]
    fn values_defaults_and_missing_ones() {
        let p = given(&[
            ("wounds", "3"),
            ("alpha", "1"),
            ("policy", " ALL "),
            ("damage", "D6 "),
        ]);
        assert_eq!(p.need_int("wounds").unwrap(), 3);
        assert_eq!(p.int("range").unwrap(), Some(12));
        assert_eq!(p.need_real("alpha").unwrap(), 1.0);
        assert!(!p.flag("cover").unwrap());
        assert!(p.flag("charge").unwrap());
        assert_eq!(p.need_word("policy").unwrap(), "all");
        assert_eq!(p.need_word("damage").unwrap(), "d6");
        let p = given(&[]);
        assert_eq!(p.real("alpha").unwrap(), None);
        let e = p.need_int("wounds").unwrap_err();
        assert_eq!(e.kind, ParamErrorKind::Missing);
        assert_eq!(e.missing, ["wounds"]);
        assert_eq!(
            e.to_string(),
            "wounds: missing: set wounds (the target's Wounds)"
        );
    }

    /// A value outside its range or of the wrong type is an error naming
    /// the parameter; a rule reading a name its scenario does not declare
    /// is an internal error, not a silent default.
    #[test]
    fn bad_values_name_their_parameter() {
        let e = given(&[("wounds", "11")]).need_int("wounds").unwrap_err();
        assert_eq!(e.field, "wounds");
        assert_eq!(e.kind, ParamErrorKind::Invalid);
        assert_eq!(e.message, "11 is impossible: must be from 1 to 10");
        let e = given(&[("cover", "3")]).flag("cover").unwrap_err();
        assert_eq!(e.message, "expected true or false, got '3'");
        let e = given(&[("policy", "al")]).word("policy").unwrap_err();
        assert_eq!(
            e.message,
            "'al' is not one of: one, all (did you mean 'all'?)"
        );
        let e = given(&[]).int("nothing").unwrap_err();
        assert_eq!(e.field, "nothing");
        assert!(e.message.starts_with("internal error"), "{}", e.message);
    }

    /// Reads are noted for the bound view, the parameters it came from and
    /// their clones alike (how a report learns which variants a rule read).
    #[test]
    fn reads_are_shared_by_views_and_clones() {
        let mut raw = Params::new();
        raw.set("range", ParamValue::Int(6));
        let view = raw.bound(decls());
        let copy = view.clone();
        assert_eq!(copy.int("range").unwrap(), Some(6));
        assert!(!view.has("cover"));
        let _ = raw.given("policy");
        let read: Vec<String> = raw.names_read().into_iter().collect();
        assert_eq!(read, ["cover", "policy", "range"]);
        assert_eq!(view.names_read(), raw.names_read());
        assert!(view.is_choice("policy", "all"));
        assert!(!view.is_choice("policy", "best"));
        assert!(!view.is_choice("range", "one"));
        assert_eq!(raw.remove("range"), Some(ParamValue::Int(6)));
        assert_eq!(raw.iter().count(), 0);
    }
}
