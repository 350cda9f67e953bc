//! The `disengage` scenario: the Leadership test to disengage from
//! combat, with its modifiers. Its parameters and builder; the rule is
//! [`Hazard`] in `mechanics.rs` (a Leadership test, shared with the
//! asteroid field and the warp rift). One module per scenario, named after
//! it, as every BFG scenario but `boarding` (which shares `boarding.rs`
//! with its rule).

use super::mechanics::{DISENGAGE_METRICS, Hazard, HazardKind};
use crate::engine::step_model::StepModel;
use crate::systems::{Model, ParamError, ParamGroup, Params, Refusal, Scenario};

/// The `disengage` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const DISENGAGE_SCENARIO: Scenario = Scenario {
    name: "disengage",
    about: "the Leadership test to disengage from combat",
    seed_section: "DISENGAGING FROM COMBAT",
    params: DisengageParams::decls,
    metrics: || DISENGAGE_METRICS.to_vec(),
    build: build_disengage,
    variants: &[],
    test_points: &[&[
        ("leadership", "7"),
        ("blast_markers_within_5cm", "2"),
        ("enemy_ships_or_ordnance", "1"),
    ]],
    refusals: &[Refusal {
        what: "Leadership 13",
        point: 0,
        set: &[("leadership", "13")],
        unset: &[],
        field: "leadership",
        words: &["from 1 to 12"],
    }],
    naive: super::naive::DISENGAGE,
};

const DISENGAGING: &str = "DISENGAGING FROM COMBAT";

crate::param_struct! {
    /// Parameters of the disengage scenario.
    struct DisengageParams {
        leadership: i64 = int(1, 12)
            .required()
            .about("the ship's Leadership")
            .seed(DISENGAGING),
        blast_markers_within_5cm: i64 = int(0, 20)
            .default("0")
            .about("+1 each")
            .seed(DISENGAGING),
        celestial_phenomena_within_15cm: bool = flag()
            .about("+3")
            .seed(DISENGAGING),
        enemy_ships_or_ordnance: i64 = int(0, 20)
            .default("0")
            .about("-1 each")
            .seed(DISENGAGING),
    }
}

fn build_disengage(p: &Params, _v: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = DisengageParams::read(p)?;
    // "Each Blast marker within 5cm +1, Any celestial phenomena within
    // 15cm +3, Each enemy ship or Ordnance marker -1"
    let modifier = p.blast_markers_within_5cm as i32
        + if p.celestial_phenomena_within_15cm {
            3
        } else {
            0
        }
        - p.enemy_ships_or_ordnance as i32;
    let test = Hazard {
        kind: HazardKind::Disengage,
        test_dice: 2,
        leadership: p.leadership as i32 + modifier,
        shields: 0,
    };
    Ok(Box::new(StepModel::new(test.into_rule())))
}
