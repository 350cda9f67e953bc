//! Warriors against a vehicle: squashed, getting on and off, boarding leaps. Its scenario, parameters and builder.

use super::super::movement::{Hazard, Leap};
use crate::param_name;
use crate::systems::gce::target::VictimParams;
use crate::systems::{Model, Opt, ParamError, ParamGroup, Params};
use crate::systems::{Refusal, Scenario};

/// The `vehicle_hazard` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const VEHICLE_HAZARD_SCENARIO: Scenario = Scenario {
    name: "vehicle_hazard",
    about: "a warrior squashed by a vehicle, getting on or off a fast one, or leaping aboard an enemy one: the test, then a S3 hit",
    seed_section: "Squashing Warriors on foot; Gettin’ On or Off Vehicles; Boarding Actions (Movement)",
    params: HazardParams::decls,
    metrics: || super::super::movement::HAZARD_METRICS.to_vec(),
    build: build_hazard,
    variants: &[],
    test_points: &[
        &[
            ("hazard", "squash"),
            ("initiative", "3"),
            ("toughness", "3"),
            ("wounds", "1"),
            ("target_ws", "3"),
            ("target_bs", "3"),
        ],
        &[
            ("hazard", "get_on_off"),
            ("toughness", "4"),
            ("wounds", "2"),
            ("save", "6"),
            ("target_ws", "4"),
            ("target_bs", "3"),
        ],
    ],
    refusals: &[Refusal {
        what: "a hazard misspelt",
        point: 0,
        set: &[("hazard", "squish")],
        unset: &[],
        field: "hazard",
        words: &["did you mean 'squash'"],
    }],
    naive: crate::systems::gce::naive::VEHICLE_HAZARD,
};

crate::param_struct! {
    /// Parameters of the hazard scenario.
    pub struct HazardParams {
        hazard: String = choice(&["squash", "get_on_off", "board"])
            .required()
            .about("squashed by a vehicle (Initiative to dodge), getting on or off a moving vehicle (4+), leaping aboard an enemy vehicle (Initiative)")
            .seed("Squashing Warriors on foot; Gettin’ On or Off Vehicles; Boarding Actions (Movement)"),
        initiative: Opt<i64> = int(1, 10)
            .about("the warrior's Initiative (squash, unless Down; board)")
            .seed("Characteristics"),
        down: bool = flag()
            .about("the warrior is Down: it cannot dodge a squashing")
            .seed("Squashing Warriors on foot"),
        vehicle_fast: bool = flag()
            .default("true")
            .about("the vehicle moved more than 6\" or used its Thrusters (getting on or off needs the 4+ only then)")
            .seed("Gettin’ On or Off Vehicles"),
        ..victim: VictimParams,
    }
}

/// Builds the hazard model.
pub fn build_hazard(p: &Params, _variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = HazardParams::read(p)?;
    let hazard = match p.hazard.as_str() {
        "squash" => Hazard::Squash,
        "board" => Hazard::Board,
        _ => Hazard::GetOnOrOff,
    };
    let down = p.down;
    if down && hazard != Hazard::Squash {
        return Err(ParamError::new(
            param_name!(HazardParams.down),
            "only a squashing can catch a Down warrior",
        ));
    }
    // a Down warrior "cannot dodge": its Initiative is never tested
    let initiative = match hazard {
        Hazard::GetOnOrOff => p.initiative.value.unwrap_or(1) as u8,
        Hazard::Squash if down => p.initiative.value.unwrap_or(1) as u8,
        _ => p.initiative.need()? as u8,
    };
    Ok(Box::new(
        Leap {
            hazard,
            stats: p.victim.stats()?,
            initiative,
            down,
            vehicle_fast: p.vehicle_fast,
        }
        .into_model(),
    ))
}
