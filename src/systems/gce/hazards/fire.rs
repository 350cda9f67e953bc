//! The `fire` scenario: its declaration, parameters ([`FireParams`]) and
//! builder, beside the rule it builds ([`super::Fire`], in `hazards.rs`
//! with the other hazards' rules). Each GCE scenario sits in the folder of
//! its mechanic, one module each.

use super::{Fire, fire_metric_catalog};
use crate::systems::gce::target::VictimParams;
use crate::systems::{Model, ParamError, ParamGroup, Params, Refusal, Scenario};

/// The `fire` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const FIRE_SCENARIO: Scenario = Scenario {
    name: "fire",
    about: "a warrior on Fire, turn after turn until the fire goes out",
    seed_section: "Fire (Catching Fire)",
    params: FireParams::decls,
    metrics: fire_metric_catalog,
    build: build_fire,
    variants: &[],
    test_points: &[
        &[
            ("toughness", "3"),
            ("wounds", "2"),
            ("save", "6"),
            ("target_ws", "3"),
            ("target_bs", "3"),
        ],
        &[
            ("toughness", "4"),
            ("wounds", "1"),
            ("target_ws", "1"),
            ("target_bs", "1"),
            ("helpers", "2"),
        ],
    ],
    refusals: &[Refusal {
        what: "negative helpers",
        point: 0,
        set: &[("helpers", "-1")],
        unset: &[],
        field: "helpers",
        words: &["-1 is impossible"],
    }],
    naive: crate::systems::gce::naive::FIRE,
};

crate::param_struct! {
    /// Parameters of the fire scenario.
    pub struct FireParams {
        ..victim: VictimParams,
        helpers: i64 = int(0, 5)
            .default("0")
            .about("friends helping put the fire out each turn (+1 each)")
            .seed("Fire"),
    }
}

fn build_fire(p: &Params, _variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = FireParams::read(p)?;
    let fire = Fire {
        victim: p.victim.stats()?,
        helpers: p.helpers as u32,
    };
    Ok(Box::new(fire.into_model()))
}

#[cfg(test)]
mod tests {
    use crate::systems::{ParamErrorKind, ParamValue, Params};

    #[test]
    fn a_typo_is_unknown_with_a_suggestion() {
        let mut p = Params::new();
        p.set("toughnes", ParamValue::Int(3));
        let e = crate::systems::gce::RULES
            .build("fire", &p, &Params::new())
            .err()
            .expect("typo");
        assert_eq!(e.kind, ParamErrorKind::Unknown);
        assert_eq!(e.field, "toughnes");
        assert!(e.message.contains("did you mean 'toughness'"), "{e}");
    }
}
