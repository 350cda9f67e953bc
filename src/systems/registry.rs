//! The one registry of rule sets. Each rule set declares its scenarios;
//! each scenario declares its parameters, metrics and build function; each
//! rule set its variants and presets. Spec validation, unknown-parameter
//! errors, `krunch list`, `docs/RULES.md` and the conformance tests are all
//! derived from these declarations, so they cannot drift from the code.

use super::decl::{ParamKind, did_you_mean};
use super::params::Params;
use super::scenario::RuleSet;
use super::value::{ParamError, ParamValue};
use super::{Model, bfg, crisis, gce, krygothic, skirmish20};

/// Every rule set krunch knows: adding one is one line here.
pub static RULE_SETS: &[&RuleSet] = &[
    &gce::RULES,
    &bfg::RULES,
    &krygothic::RULES,
    &skirmish20::RULES,
    &crisis::RULES,
];

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
/// rule `variants` (see [`RuleSet::build`]).
pub fn build(
    system: &str,
    scenario: &str,
    given: &Params,
    variants: &Params,
) -> Result<Box<dyn Model>, ParamError> {
    rule_set(system)?.build(scenario, given, variants)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::{ParamDecl, ParamErrorKind};

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
        let out = rules.resolve(&decls, &given).unwrap();
        assert_eq!(out.given(stat), Some(&ParamValue::from_text(value)));
        given.set(*stat, ParamValue::Int(1));
        let out = rules.resolve(&decls, &given).unwrap();
        assert_eq!(out.given(stat), Some(&ParamValue::Int(1)));
        given.set(preset.name.clone(), ParamValue::Str("nonesuch".into()));
        let e = rules.resolve(&decls, &given).err().unwrap();
        assert_eq!(e.field, preset.name);
        assert!(e.message.contains(first.name), "{}", e.message);
        let mut custom = Params::new();
        custom.set(preset.name.clone(), ParamValue::Str("custom".into()));
        assert_eq!(rules.resolve(&decls, &custom).unwrap().iter().count(), 1);
        let mut unknown = Params::new();
        unknown.set("rnage", ParamValue::Int(3));
        let e = rules.resolve(&decls, &unknown).err().unwrap();
        assert_eq!(e.kind, ParamErrorKind::Unknown);
        assert!(e.message.contains("did you mean 'range'"), "{}", e.message);
    }

    /// Each rule set's README (its part of the design, carried into
    /// RULES.md) has a Readings section and names every rule variant it
    /// offers, where the default is argued.
    #[test]
    fn every_rule_set_argues_its_readings_beside_its_code() {
        for r in RULE_SETS {
            assert!(
                r.readings.lines().any(|l| l.starts_with("## Readings")),
                "{}: no Readings section in its README",
                r.name
            );
            for v in r.variants {
                assert!(
                    r.readings.contains(&format!("`{}`", v.name))
                        || r.readings.contains(&format!("`{} =", v.name)),
                    "{}: variant {} is not argued in its README",
                    r.name,
                    v.name
                );
            }
        }
    }
}
