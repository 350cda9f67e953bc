//! Warriors boarding a vehicle against its crew. Its scenario, parameters and builder.

use super::super::boarding::{Boarding, BoardingBonus, LoserThrown, PileOn, StationaryHits};
use super::super::damage::{VehicleParams, VehicleRole};
use super::common::*;
use crate::systems::Variant;
use crate::systems::gce::melee::{FighterParams, FighterRole, second_weapon};
use crate::systems::{Model, Opt, ParamError, ParamGroup, Params};
use crate::systems::{Refusal, Scenario};

/// The `boarding` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const BOARDING_SCENARIO: Scenario = Scenario {
    name: "boarding",
    about: "warriors boarding a vehicle: leaps, one-on-one fights in turn (Pilin' On groups), losers thrown overboard, unopposed boarders",
    seed_section: "Boarding Actions (Movement); Boarding Actions (Hand-to-hand Combat); Pilin’ On; Unopposed Boarders; Stationary Vehicles (Close Combat)",
    params: BoardingParams::decls,
    metrics: || super::super::boarding::BOARDING_METRICS.to_vec(),
    build: build_boarding,
    variants: &[
        "boarding_bonus",
        "boarding_loser",
        "stationary_hits",
        "second_weapon",
    ],
    test_points: &[&[
        ("vehicle", "ork_trukk"),
        ("boarder", "krixit"),
        ("boarder_bs", "3"),
        ("boarder_initiative", "3"),
        ("boarder_strength", "3"),
        ("boarder_toughness", "3"),
        ("boarder_wounds", "1"),
        ("defender_ws", "3"),
        ("defender_bs", "3"),
        ("defender_attacks", "1"),
        ("defender_initiative", "2"),
        ("defender_strength", "3"),
        ("defender_toughness", "4"),
        ("defender_wounds", "1"),
        ("boarders", "3"),
        ("crew", "2"),
        ("boarders_pile_on", "one_group"),
        ("stationary", "true"),
    ]],
    refusals: &[
        Refusal {
            what: "no crew",
            point: 0,
            set: &[("crew", "0")],
            unset: &[],
            field: "crew",
            words: &["0 is impossible"],
        },
        Refusal {
            what: "unopposed boarders at a location it lacks",
            point: 0,
            set: &[("unopposed_location", "engine")],
            unset: &[],
            field: "unopposed_location",
            words: &["did you mean 'engines'"],
        },
    ],
    naive: crate::systems::gce::naive::BOARDING,
};

/// Each warrior boarding.
#[derive(Clone, Debug)]
pub struct EachBoarder;
impl FighterRole for EachBoarder {
    const WHO: &'static str = "each boarder";
    const PSYCHOLOGY: bool = false;
}

/// Each crew member defending the vehicle boarded.
#[derive(Clone, Debug)]
pub struct EachCrewMember;
impl FighterRole for EachCrewMember {
    const WHO: &'static str = "each crew member";
    const PSYCHOLOGY: bool = false;
}

/// The vehicle boarded.
#[derive(Clone, Debug)]
pub struct Boarded;
impl VehicleRole for Boarded {
    const WHO: &'static str = "the boarded vehicle";
    const THRUST: bool = false;
}

crate::param_struct! {
    /// Parameters of the boarding scenario.
    pub struct BoardingParams {
        boarder: FighterParams<EachBoarder> = prefixed("boarder_"),
        defender: FighterParams<EachCrewMember> = prefixed("defender_"),
        ..vehicle: VehicleParams<Boarded>,
        boarders: i64 = int(1, 6)
            .required()
            .about("warriors leaping aboard (each an Initiative Test)")
            .seed(BOARDING),
        crew: i64 = int(1, 6)
            .required()
            .about("warriors aboard to defend it, the driver included (the driver is assigned last)")
            .seed(BOARDING),
        boarders_pile_on: String = choice(&["none", "one_group", "split"])
            .default("none")
            .about("Pilin' On: boarders fight alone, as one group behind a lead, or split into a group per defender")
            .seed("Pilin’ On"),
        crew_pile_on: String = choice(&["none", "one_group", "split"])
            .default("none")
            .about("Pilin' On for the crew, as boarders_pile_on")
            .seed("Pilin’ On"),
        stationary: bool = flag()
            .about("the vehicle is Stationary: no Initiative Tests to board, and unopposed boarders get a bonus D6 to penetrate")
            .seed("Stationary Vehicles (Close Combat)"),
        unopposed_location: Opt<String> = text("engines")
            .about("the location unopposed boarders hit (default: the one with the lowest Armour)")
            .seed("Unopposed Boarders"),
    }
}

/// Builds the boarding model.
pub fn build_boarding(p: &Params, variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = BoardingParams::read(p)?;
    let vehicle = p.vehicle.vehicle()?;
    let location = match &p.unopposed_location.value {
        Some(name) => location_index(&vehicle, name, p.unopposed_location.name())?,
        None => (0..6)
            .min_by_key(|&j| vehicle.locations[j].armour)
            .unwrap_or(0),
    };
    let pile = |word: &str| match word {
        "one_group" => PileOn::OneGroup,
        "split" => PileOn::Split,
        _ => PileOn::None,
    };
    let bonus = BoardingBonus::read(variants)?;
    let loser = LoserThrown::read(variants)?;
    let second = second_weapon(variants)?;
    Ok(Box::new(
        Boarding {
            boarder: p.boarder.fighter(second)?,
            defender: p.defender.fighter(second)?,
            boarders: p.boarders as u8,
            crew: p.crew as u8,
            boarders_pile_on: pile(&p.boarders_pile_on),
            crew_pile_on: pile(&p.crew_pile_on),
            vehicle,
            stationary: p.stationary,
            stationary_hits: StationaryHits::read(variants)?,
            location,
            bonus,
            loser,
        }
        .into_model(),
    ))
}
