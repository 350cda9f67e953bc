//! The `asteroid_field` scenario: a ship (or an attack craft squadron)
//! entering an asteroid field. Its parameters and builder; the rule is
//! [`Hazard`] in `mechanics.rs` (a Leadership test, shared with
//! disengaging and the warp rift). One module per scenario, named after
//! it, as every BFG scenario but `boarding` (which shares `boarding.rs`
//! with its rule).

use super::mechanics::{ASTEROID_METRICS, Hazard, HazardKind};
use crate::engine::step_model::StepModel;
use crate::systems::{Model, ParamError, ParamGroup, Params, Refusal, Scenario};

/// The `asteroid_field` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const ASTEROID_FIELD_SCENARIO: Scenario = Scenario {
    name: "asteroid_field",
    about: "a ship (or attack craft) entering an asteroid field",
    seed_section: "ASTEROID FIELDS",
    params: AsteroidParams::decls,
    metrics: || ASTEROID_METRICS.to_vec(),
    build: build_asteroid_field,
    variants: &[],
    test_points: &[
        &[("leadership", "8"), ("shields", "1")],
        &[("leadership", "8"), ("attack_craft", "true")],
    ],
    refusals: &[Refusal {
        what: "attack craft as a word",
        point: 0,
        set: &[("attack_craft", "yes")],
        unset: &[],
        field: "attack_craft",
        words: &["true or false"],
    }],
    naive: super::naive::ASTEROID_FIELD,
};

const ASTEROIDS: &str = "ASTEROID FIELDS";

crate::param_struct! {
    /// Parameters of the asteroid field scenario.
    struct AsteroidParams {
        leadership: i64 = int(1, 12)
            .required()
            .about("the ship's Leadership")
            .seed(ASTEROIDS),
        shields: i64 = int(0, 10)
            .default("0")
            .about("shields block damage as normal")
            .seed(ASTEROIDS),
        attack_craft: bool = flag()
            .about("an attack craft squadron: destroyed on a 6")
            .seed(ASTEROIDS),
    }
}

fn build_asteroid_field(p: &Params, _v: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = AsteroidParams::read(p)?;
    let leadership = p.leadership as i32;
    // shields count in an asteroid field, for a ship only
    let test = if p.attack_craft {
        Hazard {
            kind: HazardKind::AttackCraft,
            test_dice: 0,
            leadership,
            shields: 0,
        }
    } else {
        Hazard {
            kind: HazardKind::AsteroidField,
            test_dice: 2,
            leadership,
            shields: p.shields as u32,
        }
    };
    Ok(Box::new(StepModel::new(test.into_rule())))
}
