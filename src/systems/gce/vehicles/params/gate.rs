//! Forcing a fort's gate, turn after turn. Its scenario, parameters and builder.

use super::super::damage::Size;
use super::super::gate::{Attack, Gate, Until};
use super::common::*;
use crate::param_name;
use crate::systems::{Model, Opt, ParamError, ParamGroup, Params};
use crate::systems::{Refusal, Scenario};

/// The `gate` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const GATE_SCENARIO: Scenario = Scenario {
    name: "gate",
    about: "a Fort gate (Armour 9) shot, hacked by unopposed warriors or rammed, turn after turn until a gap or destroyed",
    seed_section: "Forts, Opening the Gate",
    params: GateParams::decls,
    metrics: super::super::gate_metric_catalog,
    build: build_gate,
    variants: &[],
    test_points: &[
        &[("attack", "shots"), ("strength", "5"), ("hits", "2")],
        &[("attack", "ram"), ("until", "destroyed")],
    ],
    refusals: &[Refusal {
        what: "a gate no Strength can dent",
        point: 0,
        set: &[("strength", "2")],
        unset: &[],
        field: "strength",
        words: &["never reach Armour 9"],
    }],
    naive: crate::systems::gce::naive::GATE,
};

const GATE: &str = "Forts, Opening the Gate";

crate::param_struct! {
    /// Parameters of the gate scenario.
    pub struct GateParams {
        attack: String = choice(&["shots", "unopposed", "ram"])
            .required()
            .about("hits landing each turn, warriors unopposed at the gate (WS automatic hits each), or a vehicle ramming it each turn")
            .seed(GATE),
        armour: i64 = int(1, 20)
            .default("9")
            .about("the gate's Armour")
            .seed(GATE),
        strength: Opt<i64> = int(1, 10)
            .about("the hits' Strength (shots, unopposed)")
            .seed(GATE),
        hits: Opt<i64> = int(1, 20)
            .about("hits landing each turn (shots)")
            .seed(GATE),
        warriors: i64 = int(1, 10)
            .default("1")
            .about("warriors unopposed at the gate (unopposed)")
            .seed(GATE),
        ws: Opt<i64> = int(1, 10)
            .about("each unopposed warrior's Weapon Skill with modifiers: its automatic hits")
            .seed(GATE),
        rammer_size: String = choice(&["large", "small"])
            .default("large")
            .about("the ramming vehicle: large deals D3 automatic points, small 1")
            .seed(GATE),
        until: String = choice(&["gap", "destroyed"])
            .default("gap")
            .about("what the turns are counted until: gap (a gap in the gate, or worse) or destroyed (the gate destroyed)")
            .seed(GATE),
    }
}

/// Builds the gate model.
pub fn build_gate(p: &Params, _variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = GateParams::read(p)?;
    let attack = match p.attack.as_str() {
        "shots" => Attack::Hits {
            strength: p.strength.need()? as u8,
            hits: p.hits.need()? as u8,
        },
        "unopposed" => {
            let hits = p.ws.need()? * p.warriors;
            if hits > 20 {
                return Err(ParamError::new(
                    param_name!(GateParams.warriors),
                    format!("{hits} automatic hits a turn: at most 20"),
                ));
            }
            Attack::Hits {
                strength: p.strength.need()? as u8,
                hits: hits as u8,
            }
        }
        _ => Attack::Ram(match p.rammer_size.as_str() {
            "small" => Size::Small,
            _ => Size::Large,
        }),
    };
    let gate = Gate {
        armour: p.armour as u8,
        attack,
        until: match p.until.as_str() {
            "destroyed" => Until::Destroyed,
            _ => Until::Gap,
        },
    };
    if !gate.can_penetrate() {
        return Err(ParamError::new(
            param_name!(GateParams.strength),
            format!(
                "a D6 plus Strength can never reach Armour {}: the gate would stand forever",
                gate.armour
            ),
        ));
    }
    Ok(Box::new(gate.into_model(TURNS_SHOWN)))
}
