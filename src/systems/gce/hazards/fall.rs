//! The `fall` scenario: its declaration, parameters ([`FallParams`]) and
//! builder, beside the rule it builds ([`super::Fall`], in `hazards.rs`
//! with the other hazards' rules). Each GCE scenario sits in the folder of
//! its mechanic, one module each.

use super::{FALL_METRICS, Fall};
use crate::engine::step_model::StepModel;
use crate::systems::gce::target::VictimParams;
use crate::systems::{Model, ParamError, ParamGroup, Params, Refusal, Scenario};

/// The `fall` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const FALL_SCENARIO: Scenario = Scenario {
    name: "fall",
    about: "Fall Damage, and the warrior it lands on",
    seed_section: "Fall Damage",
    params: FallParams::decls,
    metrics: || FALL_METRICS.to_vec(),
    build: build_fall,
    variants: &[],
    test_points: &[
        &[
            ("height", "7"),
            ("toughness", "3"),
            ("wounds", "1"),
            ("target_ws", "3"),
            ("target_bs", "3"),
            ("lands_on_warrior", "true"),
        ],
        &[
            ("height", "4"),
            ("toughness", "3"),
            ("wounds", "2"),
            ("target_ws", "2"),
            ("target_bs", "1"),
        ],
    ],
    refusals: &[Refusal {
        what: "no Wounds to lose",
        point: 0,
        set: &[("wounds", "0")],
        unset: &[],
        field: "wounds",
        words: &["0 is impossible"],
    }],
    naive: crate::systems::gce::naive::FALL,
};

crate::param_struct! {
    /// Parameters of the fall scenario.
    pub struct FallParams {
        ..victim: VictimParams,
        height: f64 = real(0.0, 100.0)
            .required()
            .about("inches fallen")
            .seed("Fall Damage"),
        lands_on_warrior: bool = flag()
            .about("it lands on another warrior (4+: the same damage)")
            .seed("Fall Damage"),
    }
}

fn build_fall(p: &Params, _variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = FallParams::read(p)?;
    let f = Fall {
        height: p.height,
        victim: p.victim.stats()?,
        lands_on_warrior: p.lands_on_warrior,
    };
    Ok(Box::new(StepModel::new(f.into_rule())))
}
