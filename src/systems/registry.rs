//! The one registry of rule sets. Each rule set declares its scenarios;
//! each scenario declares its parameters, metrics and build function; each
//! rule set its variants and presets. Spec validation, unknown-parameter
//! errors, `krunch list`, `docs/RULES.md` and the conformance tests are all
//! derived from these declarations, so they cannot drift from the code.

use super::params::{ParamError, ParamErrorKind, ParamValue, Params};
use super::{Model, bfg, crisis, gce, krygothic, skirmish20};
use crate::engine::MetricDecl;
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// Every rule set krunch knows: adding one is one line here.
pub static RULE_SETS: &[&RuleSet] = &[
    &gce::RULES,
    &bfg::RULES,
    &krygothic::RULES,
    &skirmish20::RULES,
    &crisis::RULES,
];

/// A rule set: a folder under `src/systems/`.
#[derive(Debug)]
pub struct RuleSet {
    /// Short name used in specs (`gce`).
    pub name: &'static str,
    /// Full title.
    pub title: &'static str,
    /// The seed text it is written from.
    pub seed: &'static str,
    /// Rule variants (a choice of reading or of rule version).
    pub variants: &'static [VariantDef],
    /// Presets: named stat lines from the seed.
    pub presets: &'static [PresetDecl],
    /// Scenarios.
    pub scenarios: &'static [Scenario],
}

/// A rule option with its allowed values, the default first.
#[derive(Clone, Debug)]
pub struct VariantDef {
    /// Name used in specs and on the command line.
    pub name: &'static str,
    /// Allowed values; the first is the default.
    pub values: &'static [&'static str],
    /// What it changes and where the seed says so.
    pub about: &'static str,
}

/// A named stat line from the seed: `weapon = "shoota"` sets the Shoota's
/// numbers wherever the spec does not set them itself.
#[derive(Clone, Copy, Debug)]
pub struct PresetDecl {
    /// The catalogue it belongs to (`weapon`, `ship`).
    pub catalogue: &'static str,
    /// Its name in specs.
    pub name: &'static str,
    /// The parameters it sets (without the parameter's prefix) and values.
    pub sets: &'static [(&'static str, &'static str)],
    /// Where the seed gives these numbers.
    pub source: &'static str,
}

/// Builds a model from checked parameters and rule variants.
pub type BuildFn = fn(&Params, &Params) -> Result<Box<dyn Model>, ParamError>;

/// A scenario: one question a rule set answers.
#[derive(Debug)]
pub struct Scenario {
    /// Name used in specs (`shooting`).
    pub name: &'static str,
    /// What it models, in a line.
    pub about: &'static str,
    /// The seed sections it follows.
    pub seed_section: &'static str,
    /// Its parameters.
    pub params: fn() -> Vec<ParamDecl>,
    /// Every metric a model of it can report.
    pub metrics: fn() -> Vec<MetricDecl>,
    /// Builds a model from parameters (already checked against `params`
    /// and with presets filled in) and rule variants.
    pub build: BuildFn,
    /// Parameter points the conformance tests run besides the example
    /// specs: `name=value` pairs.
    pub test_points: &'static [&'static [(&'static str, &'static str)]],
}

impl Scenario {
    /// The rule variants of `rules` this scenario reads, found by building
    /// it at each of its test points: what `krunch new` and `krunch list`
    /// offer for it (a variant it never reads cannot change its results).
    pub fn variants_read(&self, rules: &RuleSet) -> Vec<&'static str> {
        let mut read = BTreeSet::new();
        for point in self.test_points {
            let mut given = Params::new();
            for (k, v) in point.iter() {
                given.set(*k, ParamValue::from_text(v));
            }
            let variants = Params::new();
            if build(rules.name, self.name, &given, &variants).is_ok() {
                read.extend(variants.names_read());
            }
        }
        rules
            .variants
            .iter()
            .map(|v| v.name)
            .filter(|v| read.contains(*v))
            .collect()
    }
}

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
    fn stand_in(&self) -> ParamValue {
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

impl RuleSet {
    /// The scenario named `name`.
    pub fn scenario(&self, name: &str) -> Result<&'static Scenario, ParamError> {
        self.scenarios
            .iter()
            .find(|s| s.name == name)
            .ok_or_else(|| {
                let names: Vec<&str> = self.scenarios.iter().map(|s| s.name).collect();
                ParamError::new(
                    "scenario",
                    format!(
                        "{} has no scenario '{name}' (known: {}){}",
                        self.name,
                        names.join(", "),
                        did_you_mean(name, names.iter().copied())
                    ),
                )
            })
    }

    /// Presets of `catalogue`.
    pub fn presets_of(&self, catalogue: &str) -> impl Iterator<Item = &PresetDecl> {
        self.presets
            .iter()
            .filter(move |p| p.catalogue == catalogue)
    }

    /// The variants as declarations, each defaulting to its first value.
    pub fn variant_decls(&self) -> Vec<ParamDecl> {
        self.variants
            .iter()
            .map(|v| {
                ParamDecl::choice(v.name, v.values)
                    .default(v.values[0])
                    .about(v.about)
            })
            .collect()
    }
}

/// The rule set named `name`.
pub fn rule_set(name: &str) -> Result<&'static RuleSet, ParamError> {
    RULE_SETS
        .iter()
        .copied()
        .find(|r| r.name == name)
        .ok_or_else(|| {
            let names: Vec<&str> = RULE_SETS.iter().map(|r| r.name).collect();
            ParamError::new(
                "system",
                format!(
                    "unknown rule set '{name}' (known: {}){}",
                    names.join(", "),
                    did_you_mean(name, names.iter().copied())
                ),
            )
        })
}

/// Checks `given` against the scenario's declarations and fills in preset
/// stats the spec left out: unknown names (with a suggestion), wrong types
/// and impossible values are errors naming the parameter.
pub fn resolve(rules: &RuleSet, decls: &[ParamDecl], given: &Params) -> Result<Params, ParamError> {
    let mut out = Params::new();
    for (name, value) in given.iter() {
        let Some(decl) = decls.iter().find(|d| &d.name == name) else {
            return Err(ParamError::unknown(
                name.clone(),
                format!(
                    "unknown parameter '{name}'{} (see `krunch list {} <scenario>`)",
                    did_you_mean(name, decls.iter().map(|d| d.name.as_str())),
                    rules.name
                ),
            ));
        };
        out.set(name.clone(), decl.check(value)?);
    }
    for decl in decls {
        let ParamKind::Preset { catalogue, prefix } = &decl.kind else {
            continue;
        };
        let Some(ParamValue::Str(chosen)) = out.given(&decl.name).cloned() else {
            continue;
        };
        if chosen == "custom" {
            continue;
        }
        let preset = rules
            .presets_of(catalogue)
            .find(|p| p.name == chosen)
            .ok_or_else(|| {
                let names: Vec<&str> = rules.presets_of(catalogue).map(|p| p.name).collect();
                ParamError::new(
                    decl.name.clone(),
                    format!(
                        "unknown {catalogue} '{chosen}' (presets: {}, or 'custom'){}",
                        names.join(", "),
                        did_you_mean(&chosen, names.iter().copied())
                    ),
                )
            })?;
        for (stat, value) in preset.sets {
            let name = format!("{prefix}{stat}");
            if !out.has(&name) && decls.iter().any(|d| d.name == name) {
                out.set(name, ParamValue::from_text(value));
            }
        }
    }
    Ok(out)
}

/// The stats of each preset in `given` that scenario `scenario` of
/// `system` does not read (it declares no such parameter), so they are
/// left out: `(preset parameter, preset, ["sf_dice = 2", ...])`. A spec
/// is told, so a weapon's Sustained Fire dice are not dropped in silence.
pub fn unread_preset_stats(
    system: &str,
    scenario: &str,
    given: &Params,
) -> Vec<(String, String, Vec<String>)> {
    let Ok(rules) = rule_set(system) else {
        return Vec::new();
    };
    let Ok(sc) = rules.scenario(scenario) else {
        return Vec::new();
    };
    let decls = (sc.params)();
    let mut out = Vec::new();
    for decl in &decls {
        let ParamKind::Preset { catalogue, prefix } = &decl.kind else {
            continue;
        };
        let Some(ParamValue::Str(chosen)) = given.given(&decl.name) else {
            continue;
        };
        let Some(preset) = rules.presets_of(catalogue).find(|p| p.name == chosen) else {
            continue;
        };
        let unread: Vec<String> = preset
            .sets
            .iter()
            .filter(|(stat, _)| {
                let name = format!("{prefix}{stat}");
                !decls.iter().any(|d| d.name == name)
            })
            .map(|(stat, value)| {
                if value.contains([',', ' ']) {
                    format!("{prefix}{stat} = \"{value}\"")
                } else {
                    format!("{prefix}{stat} = {value}")
                }
            })
            .collect();
        if !unread.is_empty() {
            out.push((decl.name.clone(), chosen.clone(), unread));
        }
    }
    out
}

/// Builds the model of `system`/`scenario` from `given` parameters and
/// rule `variants`. When parameters are missing, every missing one is
/// named in one error: the rule is asked again with a stand-in for each
/// until nothing more is missing.
pub fn build(
    system: &str,
    scenario: &str,
    given: &Params,
    variants: &Params,
) -> Result<Box<dyn Model>, ParamError> {
    let rules = rule_set(system)?;
    let sc = rules.scenario(scenario)?;
    let decls = (sc.params)();
    let variant_decls = rules.variant_decls();
    for (name, value) in variants.iter() {
        let decl = variant_decls
            .iter()
            .find(|d| &d.name == name)
            .ok_or_else(|| {
                ParamError::unknown(
                    name.clone(),
                    format!(
                        "unknown rule variant '{name}' ({}){}",
                        if variant_decls.is_empty() {
                            format!("{} has no rule variants", rules.name)
                        } else {
                            format!(
                                "known: {}",
                                variant_decls
                                    .iter()
                                    .map(|d| d.name.as_str())
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            )
                        },
                        did_you_mean(name, variant_decls.iter().map(|d| d.name.as_str()))
                    ),
                )
            })?;
        decl.check(value)?;
    }
    let variants = variants.bound(variant_decls);
    // the scenario named, not a literal `<scenario>`, in what it points at
    let mut params = resolve(rules, &decls, given).map_err(|mut e| {
        e.message = e.message.replace("<scenario>`", &format!("{scenario}`"));
        e
    })?;
    // (name, what to say about it)
    let mut missing: Vec<(String, String)> = decls
        .iter()
        .filter(|d| d.need == Need::Required && !params.has(&d.name))
        .map(|d| {
            (
                d.name.clone(),
                format!("missing: set {} ({})", d.name, d.about),
            )
        })
        .collect();
    let decls: std::sync::Arc<[ParamDecl]> = decls.into();
    loop {
        for (name, _) in &missing {
            if let Some(d) = decls.iter().find(|d| &d.name == name) {
                params.set(name.clone(), d.stand_in());
            }
        }
        match (sc.build)(&params.bound(decls.clone()), &variants) {
            Err(e) if e.kind == ParamErrorKind::Missing => {
                if missing.iter().any(|(n, _)| *n == e.field) {
                    return Err(e);
                }
                missing.push((e.field.clone(), e.message.clone()));
            }
            Err(e) if missing.is_empty() => return Err(e),
            Ok(model) if missing.is_empty() => return Ok(model),
            _ => break,
        }
    }
    let preset_in_use = decls.iter().any(|d| {
        matches!(d.kind, ParamKind::Preset { .. })
            && given
                .given(&d.name)
                .is_some_and(|v| !v.to_string().eq_ignore_ascii_case("custom"))
    });
    let mut message = match missing.as_slice() {
        [(_, one)] => one.clone(),
        many => format!(
            "missing {} parameters: set {}",
            many.len(),
            many.iter()
                .map(|(_, t)| t.trim_start_matches("missing: set ").to_string())
                .collect::<Vec<_>>()
                .join("; ")
        ),
    };
    if preset_in_use && !message.contains("invents none") {
        message.push_str(PRESET_NOTE);
    }
    Err(ParamError {
        field: missing[0].0.clone(),
        message,
        kind: ParamErrorKind::Missing,
        missing: missing.into_iter().map(|(n, _)| n).collect(),
    })
}

/// Says why a preset leaves numbers out.
const PRESET_NOTE: &str =
    " (presets carry only the numbers the seed gives, and krunch invents none)";

/// Metrics a layer above derives from a scenario's own (the `X>={k}` of
/// each distribution family), listed after them.
pub type Derived = fn(&[MetricDecl]) -> Vec<MetricDecl>;

/// `docs/RULES.md`: every rule set, scenario, parameter, metric (with those
/// `derived` from them), preset and variant, generated from the registry
/// (a test fails when the committed file is stale).
pub fn reference_markdown(derived: Derived) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "# Rule reference\n\nGenerated from the registry (`krunch list`); do not edit by hand.\n"
    );
    for r in RULE_SETS {
        let _ = writeln!(o, "## {} (`system = \"{}\"`)\n", r.title, r.name);
        let _ = writeln!(o, "Seed: `{}`.\n", r.seed);
        if !r.variants.is_empty() {
            let _ = writeln!(
                o,
                "### Rule variants\n\n| variant | values (default first) | meaning |\n|---|---|---|"
            );
            for v in r.variants {
                let _ = writeln!(
                    o,
                    "| `{}` | {} | {} |",
                    v.name,
                    v.values.join(", "),
                    cell(v.about)
                );
            }
            o.push('\n');
        }
        if !r.presets.is_empty() {
            let _ = writeln!(
                o,
                "### Presets\n\n| catalogue | name | sets | seed |\n|---|---|---|---|"
            );
            for p in r.presets {
                let sets: Vec<String> = p.sets.iter().map(|(k, v)| format!("{k}={v}")).collect();
                let _ = writeln!(
                    o,
                    "| {} | `{}` | {} | {} |",
                    p.catalogue,
                    p.name,
                    sets.join(", "),
                    cell(p.source)
                );
            }
            o.push('\n');
        }
        for sc in r.scenarios {
            let _ = writeln!(
                o,
                "### `{}`: {}\n\nSeed: {}.\n",
                sc.name, sc.about, sc.seed_section
            );
            if !r.variants.is_empty() {
                let read: Vec<String> = sc
                    .variants_read(r)
                    .iter()
                    .map(|v| format!("`{v}`"))
                    .collect();
                let _ = writeln!(
                    o,
                    "Rule variants it reads: {}.\n",
                    if read.is_empty() {
                        "none".to_string()
                    } else {
                        read.join(", ")
                    }
                );
            }
            let _ = writeln!(
                o,
                "| parameter | type | need | meaning | seed |\n|---|---|---|---|---|"
            );
            for d in (sc.params)() {
                let _ = writeln!(
                    o,
                    "| `{}` | {} | {} | {} | {} |",
                    d.name,
                    cell(&d.type_text()),
                    d.need_text(),
                    cell(&d.about),
                    cell(d.seed)
                );
            }
            let _ = writeln!(
                o,
                "\n| metric | label | kind | meaning |\n|---|---|---|---|"
            );
            let catalogue = (sc.metrics)();
            for m in catalogue.iter().chain(&derived(&catalogue)) {
                let _ = writeln!(
                    o,
                    "| `{}` | {} | {} | {} |",
                    m.id,
                    cell(m.label),
                    match (m.kind, m.yes_no) {
                        (_, true) => "yes/no",
                        (super::MetricKind::Probability, _) => "probability",
                        (super::MetricKind::Mean, _) => "mean",
                    },
                    cell(m.about)
                );
            }
            o.push('\n');
        }
    }
    o
}

/// What `krunch list` prints: every rule set with its scenarios; one rule
/// set in full; or one scenario's parameters, metrics (with those
/// `derived` from them), presets and variants.
pub fn list_text(
    system: Option<&str>,
    scenario: Option<&str>,
    derived: Derived,
) -> Result<String, ParamError> {
    let mut o = String::new();
    let Some(system) = system else {
        let width = RULE_SETS
            .iter()
            .flat_map(|r| r.scenarios.iter().map(|sc| sc.name.len()))
            .max()
            .unwrap_or(0);
        for r in RULE_SETS {
            let _ = writeln!(o, "{} — {}", r.name, r.title);
            for sc in r.scenarios {
                let _ = writeln!(o, "  {:<width$} {}", sc.name, sc.about);
            }
            let mut catalogues: Vec<&str> = r.presets.iter().map(|p| p.catalogue).collect();
            catalogues.dedup();
            for c in catalogues {
                let names: Vec<&str> = r.presets_of(c).map(|p| p.name).collect();
                let _ = writeln!(o, "  presets ({c}): {}", names.join(", "));
            }
        }
        o.push_str("\nMore: krunch list SYSTEM [SCENARIO]   (e.g. krunch list gce shooting)\n");
        return Ok(o);
    };
    let r = rule_set(system)?;
    let scenarios: Vec<&Scenario> = match scenario {
        Some(name) => vec![r.scenario(name)?],
        None => r.scenarios.iter().collect(),
    };
    let _ = writeln!(o, "{} — {} (seed {})", r.name, r.title, r.seed);
    let _ = writeln!(
        o,
        "variants:{}",
        if r.variants.is_empty() { " none" } else { "" }
    );
    for v in r.variants {
        let _ = writeln!(
            o,
            "  {} = {} (default {}): {}",
            v.name,
            v.values.join(" | "),
            v.values[0],
            v.about
        );
    }
    let _ = writeln!(
        o,
        "presets:{}",
        if r.presets.is_empty() { " none" } else { "" }
    );
    for p in r.presets {
        let sets: Vec<String> = p.sets.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let _ = writeln!(o, "  {} \"{}\": {}", p.catalogue, p.name, sets.join(", "));
    }
    for sc in scenarios {
        let _ = writeln!(o, "\nscenario {}: {}", sc.name, sc.about);
        let _ = writeln!(o, "  seed: {}", sc.seed_section);
        if !r.variants.is_empty() {
            let read = sc.variants_read(r);
            let _ = writeln!(
                o,
                "  variants it reads: {}",
                if read.is_empty() {
                    "none".to_string()
                } else {
                    read.join(", ")
                }
            );
        }
        let _ = writeln!(o, "  parameters:");
        for d in (sc.params)() {
            let _ = writeln!(
                o,
                "    {:<32} {:<40} {:<12} {}",
                d.name,
                d.type_text(),
                d.need_text(),
                d.about
            );
        }
        let _ = writeln!(o, "  metrics:");
        let catalogue = (sc.metrics)();
        for m in catalogue.iter().chain(&derived(&catalogue)) {
            let _ = writeln!(o, "    {:<36} {:<40} {}", m.id, m.label, m.about);
        }
    }
    Ok(o)
}

fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
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

    /// A stand-in for a missing value passes its own declaration's check
    /// (so the rule can be asked what else is missing), whatever the range:
    /// a whole number whose range lies below 1 (a save modifier, -6..0)
    /// gets its largest value, not 1.
    #[test]
    fn every_stand_in_passes_its_check() {
        for (lo, hi, want) in [(-6, 0, 0), (-6, -2, -2), (0, 5, 1), (3, 9, 3), (1, 1, 1)] {
            let d = ParamDecl::int("x", lo, hi);
            assert_eq!(d.stand_in(), ParamValue::Int(want), "{lo}..{hi}");
            assert!(d.check(&d.stand_in()).is_ok(), "{lo}..{hi}");
        }
        for r in RULE_SETS {
            for sc in r.scenarios {
                for d in (sc.params)() {
                    if matches!(d.kind, ParamKind::Preset { .. }) {
                        continue; // "custom" is read by resolve, not check
                    }
                    let v = d.stand_in();
                    assert!(
                        d.check(&v).is_ok(),
                        "{} {} {}: {v}",
                        r.name,
                        sc.name,
                        d.name
                    );
                }
            }
        }
    }

    /// A suggestion only for a close word.
    #[test]
    fn did_you_mean_suggests_only_close_words() {
        assert_eq!(
            did_you_mean("shootng", ["shooting", "boarding"]),
            " (did you mean 'shooting'?)"
        );
        assert_eq!(did_you_mean("xyz", ["shooting", "boarding"]), "");
        let e = rule_set("gcee").err().unwrap();
        assert_eq!(e.field, "system");
        assert!(e.message.contains("(did you mean 'gce'?)"), "{}", e.message);
    }

    /// Presets fill only the stats the spec left out; a value given wins;
    /// an unknown name is refused with the presets listed; "custom" fills
    /// nothing.
    #[test]
    fn resolve_fills_presets_under_given_values() {
        let rules = rule_set("gce").unwrap();
        let sc = rules.scenario("shooting").unwrap();
        let decls = (sc.params)();
        let preset = decls
            .iter()
            .find(|d| matches!(&d.kind, ParamKind::Preset { prefix, .. } if prefix.is_empty()))
            .expect("gce shooting has a weapon preset");
        let ParamKind::Preset { catalogue, .. } = &preset.kind else {
            unreachable!()
        };
        let first = rules.presets_of(catalogue).next().unwrap();
        let (stat, value) = first
            .sets
            .iter()
            .find(|(s, _)| decls.iter().any(|d| d.name == *s))
            .unwrap();
        let mut given = Params::new();
        given.set(preset.name.clone(), ParamValue::Str(first.name.into()));
        let out = resolve(rules, &decls, &given).unwrap();
        assert_eq!(out.given(stat), Some(&ParamValue::from_text(value)));
        given.set(*stat, ParamValue::Int(1));
        let out = resolve(rules, &decls, &given).unwrap();
        assert_eq!(out.given(stat), Some(&ParamValue::Int(1)));
        given.set(preset.name.clone(), ParamValue::Str("nonesuch".into()));
        let e = resolve(rules, &decls, &given).err().unwrap();
        assert_eq!(e.field, preset.name);
        assert!(e.message.contains(first.name), "{}", e.message);
        let mut custom = Params::new();
        custom.set(preset.name.clone(), ParamValue::Str("custom".into()));
        assert_eq!(resolve(rules, &decls, &custom).unwrap().iter().count(), 1);
        let mut unknown = Params::new();
        unknown.set("rnage", ParamValue::Int(3));
        let e = resolve(rules, &decls, &unknown).err().unwrap();
        assert_eq!(e.kind, crate::systems::params::ParamErrorKind::Unknown);
        assert!(e.message.contains("did you mean 'range'"), "{}", e.message);
    }
}
