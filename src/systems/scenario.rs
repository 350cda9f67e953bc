//! What a rule set declares: its scenarios (parameters, metrics, builder,
//! test points, bad-input cases, naive loop), variants and presets. The registry lists the rule sets;
//! these types sit below it, so a rule set never imports the registry.

use super::decl::{Need, ParamDecl, ParamKind, did_you_mean};
use super::naive::NaiveLoop;
use super::params::Params;
use super::value::{ParamError, ParamErrorKind, ParamValue};
use crate::engine::{MetricDecl, Model};
use std::collections::BTreeSet;

/// A rule set: a folder under `src/systems/`.
#[derive(Debug)]
pub struct RuleSet {
    /// Short name used in specs (`gce`).
    pub name: &'static str,
    /// Full title.
    pub title: &'static str,
    /// The seed text it is written from.
    pub seed: &'static str,
    /// How it is built and how it reads its seed where the text leaves a
    /// choice: its folder's `README.md`, carried into `docs/RULES.md`.
    pub readings: &'static str,
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
    /// The rule variants its rule reads, in the rule set's order: what
    /// `krunch new` and `krunch list` offer for it. `tests/conformance.rs`
    /// holds it to what its test points read and to every variant a
    /// bundled spec's model reads, so the list is the rule's.
    pub variants: &'static [&'static str],
    /// Parameter points the conformance tests run besides the example
    /// specs: `name=value` pairs.
    pub test_points: &'static [&'static [(&'static str, &'static str)]],
    /// Inputs it must refuse, each a change to one of its test points:
    /// `tests/refusals.rs` writes each as a spec and holds the error to
    /// the file, line and field it names (exit code 2).
    pub refusals: &'static [Refusal],
    /// The rule at its first test point written as the obvious per-die
    /// loop: the benchmarks' "1x", held to the exact value by a test.
    pub naive: NaiveLoop,
}

/// A bad input a scenario must refuse: one of its test points with `set`
/// given on top (replacing a value the point gives, else added after it)
/// and `unset` left out, refused with an error at `field`'s line that
/// says `words`.
#[derive(Debug)]
pub struct Refusal {
    /// What is wrong, in a few words (names a failing case).
    pub what: &'static str,
    /// The test point it changes (an index into `test_points`).
    pub point: usize,
    /// Parameters given on top of the test point, `name=value` as in
    /// test points.
    pub set: &'static [(&'static str, &'static str)],
    /// Parameters of the test point left out.
    pub unset: &'static [&'static str],
    /// The parameter the error names; where it is given, the error names
    /// its line too.
    pub field: &'static str,
    /// Words the message must contain.
    pub words: &'static [&'static str],
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

    /// Checks `given` against the scenario's declarations and fills in preset
    /// stats the spec left out: unknown names (with a suggestion), wrong types
    /// and impossible values are errors naming the parameter.
    pub fn resolve(&self, decls: &[ParamDecl], given: &Params) -> Result<Params, ParamError> {
        let mut out = Params::new();
        let attackers = super::attackers::names_for(decls, given)?;
        for (name, value) in given.iter() {
            let Some(decl) = super::attackers::decl_of(decls, &attackers, name)? else {
                return Err(ParamError::unknown(
                    name.clone(),
                    format!(
                        "unknown parameter '{name}'{} (see `krunch list {} <scenario>`)",
                        did_you_mean(name, decls.iter().map(|d| d.name.as_str())),
                        self.name
                    ),
                ));
            };
            // named as given (`boyz.bs`), not as declared (`attacker.bs`)
            let checked = decl.check(value).map_err(|mut e| {
                e.field = name.clone();
                e
            })?;
            out.set(name.clone(), checked);
        }
        for (decl, name) in each_name(decls, &attackers) {
            let ParamKind::Preset { catalogue, prefix } = &decl.kind else {
                continue;
            };
            // a preset each attacker sets fills that attacker's stats
            let (owner, prefix) = match name.split_once('.') {
                Some((who, _)) if decl.name.starts_with(super::attackers::EACH) => (
                    format!("{who}."),
                    format!("{}{prefix}", super::attackers::EACH),
                ),
                _ => (String::new(), prefix.clone()),
            };
            let Some(ParamValue::Str(chosen)) = out.given(&name).cloned() else {
                continue;
            };
            if chosen == "custom" {
                continue;
            }
            let preset = self
                .presets_of(catalogue)
                .find(|p| p.name == chosen)
                .ok_or_else(|| {
                    let names: Vec<&str> = self.presets_of(catalogue).map(|p| p.name).collect();
                    ParamError::new(
                        name.clone(),
                        format!(
                            "unknown {catalogue} '{chosen}' (presets: {}, or 'custom'){}",
                            names.join(", "),
                            did_you_mean(&chosen, names.iter().copied())
                        ),
                    )
                })?;
            for (stat, value) in preset.sets {
                let declared = format!("{prefix}{stat}");
                let name = match declared.strip_prefix(super::attackers::EACH) {
                    Some(own) => format!("{owner}{own}"),
                    None => declared.clone(),
                };
                if !out.has(&name) && decls.iter().any(|d| d.name == declared) {
                    out.set(name, ParamValue::from_text(value));
                }
            }
        }
        Ok(out)
    }

    /// The rule variants scenario `sc` is seen to read when built at each
    /// of its test points: a test holds its declaration to this.
    pub fn variants_found(&self, sc: &Scenario) -> Vec<&'static str> {
        let rules = self;
        let mut read = BTreeSet::new();
        for point in sc.test_points {
            let mut given = Params::new();
            for (k, v) in point.iter() {
                given.set(*k, ParamValue::from_text(v));
            }
            let variants = Params::new();
            // what it read, whether or not the point builds
            let _ = rules.build(sc.name, &given, &variants);
            read.extend(variants.names_read());
        }
        rules
            .variants
            .iter()
            .map(|v| v.name)
            .filter(|v| read.contains(*v))
            .collect()
    }

    /// Builds the model of `scenario` from `given` parameters and rule
    /// `variants`. When parameters are missing, every missing one is
    /// named in one error: the rule is asked again with a stand-in for each
    /// until nothing more is missing.
    pub fn build(
        &self,
        scenario: &str,
        given: &Params,
        variants: &Params,
    ) -> Result<Box<dyn Model>, ParamError> {
        let rules = self;
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
        let mut params = rules.resolve(&decls, given).map_err(|mut e| {
            e.message = e.message.replace("<scenario>`", &format!("{scenario}`"));
            e
        })?;
        // (name, what to say about it)
        let attackers = super::attackers::names_for(&decls, &params)?;
        // every attacker's parameter hangs on the list: without it, say so
        // alone rather than name a stand-in's attackers
        if super::attackers::is_volley(&decls) && attackers.is_empty() {
            return Err(ParamError::missing(
                super::attackers::ATTACKERS,
                "missing: list the attackers, one [[attacker]] entry each (name = \"boyz\", count, and what each sets)",
            ));
        }
        let mut missing: Vec<(String, String)> = each_name(&decls, &attackers)
            .filter(|(d, name)| d.need == Need::Required && !params.has(name))
            .map(|(d, name)| {
                let message = format!("missing: set {name} ({})", d.about);
                (name, message)
            })
            .collect();
        let decls: std::sync::Arc<[ParamDecl]> = decls.into();
        loop {
            for (name, _) in &missing {
                if let Ok(Some(d)) = super::attackers::decl_of(&decls, &attackers, name) {
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
        let preset_in_use = each_name(&decls, &attackers).any(|(d, name)| {
            matches!(d.kind, ParamKind::Preset { .. })
                && given
                    .given(&name)
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
}

/// Each declaration with the name a spec gives it under: its own, or one
/// per attacker (`boyz.bs`, `nob.bs` for `attacker.bs`).
fn each_name<'a>(
    decls: &'a [ParamDecl],
    attackers: &'a [String],
) -> impl Iterator<Item = (&'a ParamDecl, String)> + 'a {
    decls.iter().flat_map(move |d| {
        let names: Vec<String> = match d.name.strip_prefix(super::attackers::EACH) {
            Some(own) => attackers.iter().map(|a| format!("{a}.{own}")).collect(),
            None => vec![d.name.clone()],
        };
        names.into_iter().map(move |n| (d, n))
    })
}

/// Says why a preset leaves numbers out.
const PRESET_NOTE: &str =
    " (presets carry only the numbers the seed gives, and krunch invents none)";
