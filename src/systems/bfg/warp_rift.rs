//! The `warp_rift` scenario: a ship crossing a warp rift (a Leadership
//! test on 3D6). Its parameter and builder; the rule is [`Hazard`] in
//! `mechanics.rs` (a Leadership test, shared with disengaging and the
//! asteroid field). One module per scenario, named after it, as every BFG
//! scenario but `boarding` (which shares `boarding.rs` with its rule).

use super::mechanics::{Hazard, HazardKind, WARP_RIFT_METRICS};
use crate::engine::step_model::StepModel;
use crate::systems::{Model, ParamError, ParamGroup, Params, Refusal, Scenario};

/// The `warp_rift` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const WARP_RIFT_SCENARIO: Scenario = Scenario {
    name: "warp_rift",
    about: "a ship crossing a warp rift (3D6 Leadership test)",
    seed_section: "WARP RIFTS",
    params: WarpRiftParams::decls,
    metrics: || WARP_RIFT_METRICS.to_vec(),
    build: build_warp_rift,
    variants: &[],
    test_points: &[&[("leadership", "9")]],
    refusals: &[Refusal {
        what: "shields in a warp rift",
        point: 0,
        set: &[("shields", "1")],
        unset: &[],
        field: "shields",
        words: &["unknown parameter 'shields'"],
    }],
    naive: super::naive::WARP_RIFT,
};

const WARP_RIFTS: &str = "WARP RIFTS";

crate::param_struct! {
    /// Parameters of the warp rift scenario.
    struct WarpRiftParams {
        leadership: i64 = int(1, 12)
            .required()
            .about("the ship's Leadership")
            .seed(WARP_RIFTS),
    }
}

fn build_warp_rift(p: &Params, _v: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = WarpRiftParams::read(p)?;
    let test = Hazard {
        kind: HazardKind::WarpRift,
        test_dice: 3,
        leadership: p.leadership as i32,
        shields: 0,
    };
    Ok(Box::new(StepModel::new(test.into_rule())))
}
